import OrderedCollections
import ReelCore
import ReelEngine

/// The summary of each run as an HTML table: every key of `SessionSummary.json`, one column per
/// run, and for two runs the b/a ratio of `SessionSummary.ratios`.
enum SummaryTable {
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
        for key in keys {
            html += "<tr><td>\(ReportText.escape(key))</td>"
            for run in values {
                guard let value = run?[key] else {
                    html += "<td>–</td>"
                    continue
                }
                html += "<td title=\"\(ReportText.escape(JSONWriter.compact(value)))\">\(ReportText.escape(format(value, key: key)))</td>"
            }
            if summaries.count == 2 {
                let ratio = ratios?[key]?.number
                html += "<td>\(ratio.map { "\(ReportText.fixed($0, $0 < 10 ? 2 : 1))×" } ?? "–")</td>"
            }
            html += "</tr>\n"
        }
        html += "</tbody></table>\n"
        return html
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
        if key.hasPrefix("ttffMs.") || last.hasSuffix("Ms") { return ReportText.ms(number) }
        if last.hasSuffix("MB") { return "\(ReportText.fixed(number, 1)) MB" }
        if number == number.rounded() && abs(number) < 1e15 { return ReportText.grouped(Int64(number)) }
        return ReportText.fixed(number, 3)
    }
}
