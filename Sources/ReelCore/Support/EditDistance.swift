/// Edit distance between two strings (Levenshtein with adjacent transpositions, the optimal
/// string alignment distance: "cahce" is one edit from "cache"), to name the nearest known key
/// or command for a typo.
package enum EditDistance {
    package static func between(_ lhs: String, _ rhs: String) -> Int {
        between(Array(lhs.utf8), Array(rhs.utf8), limit: Int.max) ?? Int.max
    }

    /// The distance between two byte strings, or nil as soon as it is sure to exceed `limit`
    /// (every cell of a row is over it), so a search for the nearest of many candidates stops
    /// early on the far ones.
    package static func between(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
        if a.isEmpty { return b.count <= limit ? b.count : nil }
        if b.isEmpty { return a.count <= limit ? a.count : nil }
        if abs(a.count - b.count) > limit { return nil }
        // Three rows: a transposition reaches two back. A row over `limit` everywhere ends the
        // search: a transposition from the row before it costs at least as much.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// The candidate nearest `name` (case folded) when it is near enough to be a typo of it: at
    /// most a third of the name's length away (and at least one edit allowed); nil otherwise.
    package static func suggestion(for name: String, among candidates: [String]) -> String? {
        let folded = Array(name.lowercased().utf8)
        let limit = max(1, folded.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            guard let distance = between(folded, Array(candidate.lowercased().utf8), limit: best.map { $0.distance - 1 } ?? limit)
            else { continue }
            best = (candidate, distance)
        }
        return best?.name
    }
}
