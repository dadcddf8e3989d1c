import Foundation
import ReelCore

extension SessionSummary {
    /// A table for people: one row per figure, one column per run, and `b/a` for two runs; a
    /// figure with no value (TTFF when no play reached a first frame, bytes per byte played when
    /// nothing played) reads "-".
    public static func table(_ runs: [(title: String, summary: SessionSummary)]) -> String {
        typealias Row = (name: String, value: (SessionSummary) -> Double?, text: (Double) -> String)
        /// Rows of milliseconds: their ratio gets the difference beside it on a tiny base.
        let count: (Double) -> String = { String(Int($0.rounded())) }
        let ms: (Double) -> String = { String(format: $0 < 10 ? "%.2f ms" : "%.1f ms", $0) }
        let percent: (Double) -> String = { String(format: "%.1f %%", $0 * 100) }
        let bytes: (Double) -> String = { Self.bytesText($0) }
        let rows: [Row] = [
            ("plays", { Double($0.plays) }, count),
            ("TTFF p50", { $0.ttffMs.p50 }, ms),
            ("TTFF p95", { $0.ttffMs.p95 }, ms),
            ("TTFF max", { $0.ttffMs.max }, ms),
            ("started within 50 ms", { $0.startedWithin50msRatio }, percent),
            ("stalls", { Double($0.stalls.count) }, count),
            ("stalled time", { $0.stalls.totalMs }, ms),
            ("frames", { Double($0.frames) }, count),
            ("CDN requests", { Double($0.cdn.requests) }, count),
            ("CDN bytes", { Double($0.cdn.bytes) }, bytes),
            ("bytes played", { Double($0.bytesPlayed) }, bytes),
            ("CDN bytes / bytes played", { $0.bytesPlayed == 0 ? nil : Double($0.cdn.bytes) / Double($0.bytesPlayed) }, { String(format: "%.2f", $0) }),
            ("cache hit ratio", { $0.cacheHitRatio }, percent),
            ("prefetch fetched", { Double($0.prefetch.fetchedBytes) }, bytes),
            ("prefetch used", { Double($0.prefetch.usedBytes) }, bytes),
            ("prefetch wasted", { Double($0.prefetch.wastedBytes) }, bytes),
            ("decoders created", { Double($0.decoders.created) }, count),
            ("decoders reused", { Double($0.decoders.reused) }, count),
            ("bandwidth estimate", { $0.bandwidth.map { Double($0.estimateKbps) } }, { "\(Int($0.rounded())) kbps" }),
            ("mean played bitrate", { $0.abr?.meanPlayedKbps }, { "\(Int($0.rounded())) kbps" }),
            ("variant switches up", { $0.abr.map { Double($0.switchesUp) } }, count),
            ("variant switches down", { $0.abr.map { Double($0.switchesDown) } }, count),
            ("peak RSS", { $0.peakRSSMB }, { String(format: "%.1f MB", $0) }),
            ("peak threads", { $0.threads.map { Double($0.peak) } }, count),
            ("errors", { Double($0.errors) }, count),
        ]
        var header = [""] + runs.map(\.title)
        if runs.count == 2 { header.append("b/a") }
        var table = [header]
        for row in rows {
            var line = [row.name] + runs.map { row.value($0.summary).map(row.text) ?? "-" }
            if runs.count == 2 {
                let milliseconds = row.name.hasPrefix("TTFF") || row.name == "stalled time"
                if let x = row.value(runs[0].summary), let y = row.value(runs[1].summary),
                   let ratio = RatioText.ratio(base: x, value: y, milliseconds: milliseconds, times: "") {
                    line.append(ratio)
                } else {
                    line.append("-")
                }
            }
            table.append(line)
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { line in
            line.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                            : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "   ")
        }.joined(separator: "\n")
    }

    /// Bytes in decimal units for people.
    public static func bytesText(_ value: Double) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var amount = value, unit = 0
        while amount >= 1000 && unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        return unit == 0 ? "\(Int(value)) B" : String(format: "%.1f %@", amount, units[unit])
    }
}
