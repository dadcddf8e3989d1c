import OrderedCollections
import ReelCore
import ReelEngine

/// The summary of each run as an HTML table: every key of `SessionSummary.json`, one column per
/// run, and for two runs the b/a ratio of `SessionSummary.ratios`. A long value (a list, an
/// object: `abr.variants`) takes a row of its own across the columns, folded and wrapped, so the
/// value columns stay on the page.
enum SummaryTable {
    /// Values longer than this many characters (or not a number or a short string) get a row
    /// of their own.
    static let longValue = 32

    static func render(titles: [String], summaries: [SessionSummary?]) -> String {
        guard let keys = summaries.compactMap({ $0 }).first.map({ flattened($0.json).keys }) else {
            return "<p class=\"note\">No summary was given: pass <code>--summary FILE</code> (what <code>reel feed run --json</code> prints) to see it here.</p>\n"
        }
        let values = summaries.map { $0.map { flattened($0.json) } }
        let ratios: OrderedDictionary<String, JSONValue>? = if summaries.count == 2, let a = summaries[0], let b = summaries[1] {
            SessionSummary.ratios(a, b).object
        } else {
            nil
        }
        var html = "<table class=\"summary\"><thead><tr><th>key</th>"
        for (index, title) in titles.enumerated() {
            html += "<th><span class=\"item\"><span class=\"sw \(ReportStyle.runClass(index))\"></span> \(ReportText.escape(title))</span></th>"
        }
        if summaries.count == 2 { html += "<th>\(ReportText.escape(titles[1])) / \(ReportText.escape(titles[0]))</th>" }
        html += "</tr></thead><tbody>\n"
        let columns = titles.count + (summaries.count == 2 ? 1 : 0)
        for key in keys {
            if let long = longRow(key: key, values: values.map { $0?[key] }, titles: titles, columns: columns) {
                html += long
                continue
            }
            html += "<tr><td>\(ReportText.escape(key))</td>"
            for run in values {
                guard let value = run?[key] else {
                    html += "<td>–</td>"
                    continue
                }
                html += "<td title=\"\(ReportText.escape(JSONWriter.compact(value)))\">\(ReportText.escape(format(value, key: key)))</td>"
            }
            if summaries.count == 2 {
                html += "<td>\(ReportText.escape(ratioText(key: key, a: values[0]?[key], b: values[1]?[key], ratio: ratios?[key]?.number)))</td>"
            }
            html += "</tr>\n"
        }
        html += "</tbody></table>\n"
        return html
    }

    /// The row of a key whose value is long in any run: its name, then across the value columns
    /// each run's value, folded (`<details>`) and wrapped anywhere; nil for short values.
    static func longRow(key: String, values: [JSONValue?], titles: [String], columns: Int) -> String? {
        let texts = values.map { $0.map(JSONWriter.compact) }
        guard values.contains(where: { value in
            guard let value else { return false }
            switch value {
            case .array, .object: return true
            default: return JSONWriter.compact(value).count > longValue
            }
        }) else { return nil }
        var html = "<tr class=\"long\"><td>\(ReportText.escape(key))</td><td colspan=\"\(columns)\">"
        for (index, text) in texts.enumerated() {
            let shown = text ?? "–"
            let count = values[index].flatMap { value -> Int? in
                switch value {
                case .array(let items): items.count
                case .object(let members): members.count
                default: nil
                }
            }
            let label = (titles.count > 1 ? "\(titles[index]): " : "") + (count.map { "\($0) item\($0 == 1 ? "" : "s")" } ?? "\(shown.count) characters")
            html += "<details open><summary><span class=\"sw \(ReportStyle.runClass(index))\"></span> \(ReportText.escape(label))</summary>"
            html += "<code>\(ReportText.escape(shown))</code></details>"
        }
        return html + "</td></tr>\n"
    }

    /// b / a for one key: the ratio, with the difference in milliseconds beside it when the key
    /// is a time whose base is under a millisecond (`RatioText`).
    static func ratioText(key: String, a: JSONValue?, b: JSONValue?, ratio: Double?) -> String {
        let milliseconds = isMilliseconds(key)
        if let x = a?.number, let y = b?.number, let text = RatioText.ratio(base: x, value: y, milliseconds: milliseconds) {
            return text
        }
        return ratio.map { "\(ReportText.fixed($0, $0 < 10 ? 2 : 1))×" } ?? "–"
    }

    /// Whether a key is a time in milliseconds: it ends in "Ms", or is a percentile of one
    /// ("warm.ttffMs.p50").
    static func isMilliseconds(_ key: String) -> Bool {
        let parts = key.split(separator: ".")
        return parts.last?.hasSuffix("Ms") == true || (parts.count > 1 && parts[parts.count - 2].hasSuffix("Ms"))
    }

    /// Nested objects flattened to dotted keys ("ttffMs.p50"), in the summary's order.
    static func flattened(_ json: JSONValue) -> OrderedDictionary<String, JSONValue> {
        var out: OrderedDictionary<String, JSONValue> = [:]
        func walk(_ value: JSONValue, _ path: String) {
            if case .object(let members) = value {
                for (key, member) in members { walk(member, path.isEmpty ? key : "\(path).\(key)") }
            } else {
                out[path] = value
            }
        }
        walk(json, "")
        return out
    }

    /// A value as people read it, by what its key measures: bytes, ratios, milliseconds, counts.
    static func format(_ value: JSONValue, key: String) -> String {
        if value == .null { return "–" }
        guard let number = value.number else { return JSONWriter.compact(value) }
        let last = key.split(separator: ".").last.map(String.init) ?? key
        if last.hasSuffix("Bytes") || last == "bytes" || last.hasPrefix("bytes"), abs(number) < 9e18 {
            return ReportText.bytes(Int64(number))
        }
        if last.hasSuffix("Ratio") { return ReportText.percent(number) }
        if isMilliseconds(key) { return ReportText.ms(number) }
        if last.hasSuffix("MB") { return "\(ReportText.fixed(number, 1)) MB" }
        if number == number.rounded() && abs(number) < 1e15 { return ReportText.grouped(Int64(number)) }
        return ReportText.fixed(number, 3)
    }
}
