import ReelCore
/// Fills a `SegmentTemplate` URL: `$RepresentationID$`, `$Number$`, `$Time$`, `$Bandwidth$`,
/// `$$`, with widths like `$Number%05d$` (ISO/IEC 23009-1 5.3.9.4.4). Identifiers not given
/// (for example `$Number$` in `@initialization`) are left as written.
struct DASHTemplate {
    var representationID: String
    var bandwidth: Int64

    func fill(_ template: String, number: Int64? = nil, time: Int64? = nil) -> String {
        guard template.utf8.contains(UInt8(ascii: "$")) else { return template }
        var output = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let closing = rest[afterDollar...].firstIndex(of: "$") else {
                output += rest[dollar...]
                return output
            }
            let body = rest[afterDollar..<closing]
            output += substitute(body, number: number, time: time) ?? String(rest[dollar...closing])
            rest = rest[rest.index(after: closing)...]
        }
        output += rest
        return output
    }

    /// The text for `$body$`, or nil to leave it as written.
    private func substitute(_ body: Substring, number: Int64?, time: Int64?) -> String? {
        if body.isEmpty { return "$" }
        let identifier: Substring
        var width = 0
        if let percent = body.firstIndex(of: "%") {
            identifier = body[..<percent]
            let format = body[body.index(after: percent)...]
            // Only %0<width>d (and %d) are defined.
            guard format.last == "d" else { return nil }
            let digits = format.dropLast().drop { $0 == "0" }
            if !digits.isEmpty {
                guard let parsed = Int(digits), parsed <= 64 else { return nil }
                width = parsed
            }
        } else {
            identifier = body
        }
        switch identifier {
        case "RepresentationID":
            return width == 0 ? representationID : nil
        case "Bandwidth":
            return Self.pad(bandwidth, width)
        case "Number":
            return number.map { Self.pad($0, width) }
        case "Time":
            return time.map { Self.pad($0, width) }
        default:
            return nil
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        guard text.count < width else { return text }
        if value < 0 { return "-" + String(repeating: "0", count: width - text.count) + text.dropFirst() }
        return String(repeating: "0", count: width - text.count) + text
    }
}
