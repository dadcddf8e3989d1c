import ReelCore
import ReelEngine

/// Bytes over time as inline SVG: for one run, the cumulative bytes read, stacked by who read
/// them (playback, prefetch, thumbnail) and where from (network or cache). Every run's chart
/// shares the time axis of the timelines and one byte scale, so heights compare across runs.
enum BytesChart {
    static let top = 14.0
    static let plotHeight = 180.0
    static let bottom = 26.0

    /// A stacked series, bottom to top.
    struct Series: Sendable, Equatable {
        var origin: SessionEvent.Origin
        var hit: Bool
    }

    static let series: [Series] = [
        Series(origin: .playback, hit: false), Series(origin: .playback, hit: true),
        Series(origin: .prefetch, hit: false), Series(origin: .prefetch, hit: true),
        Series(origin: .thumbnail, hit: false), Series(origin: .thumbnail, hit: true),
    ]

    /// Each series' share of one fetch: its network bytes and its cache bytes.
    static func shares(_ fetch: SessionEvent.Fetch) -> [(index: Int, bytes: Int64)] {
        [(Series(origin: fetch.origin, hit: false), fetch.networkBytes), (Series(origin: fetch.origin, hit: true), fetch.cacheBytes)]
            .compactMap { one, bytes in Self.series.firstIndex(of: one).map { ($0, bytes) } }
    }

    /// The total bytes of each series in `events`, in `series` order.
    static func totals(_ events: [SessionEvent]) -> [Int64] {
        var totals = Array(repeating: Int64(0), count: series.count)
        for event in events {
            guard case .fetch(let fetch) = event.kind else { continue }
            for (index, bytes) in shares(fetch) { totals[index] = totals[index].saturatingAdding(bytes) }
        }
        return totals
    }

    /// Cumulative bytes of each series at `samples + 1` evenly spaced times from 0 to the end.
    static func cumulative(_ events: [SessionEvent], axis: TimeAxis, samples: Int) -> [[Int64]] {
        var values = Array(repeating: Array(repeating: Int64(0), count: samples + 1), count: series.count)
        for event in events {
            guard case .fetch(let fetch) = event.kind else { continue }
            let sample = Int((max(event.time, 0) / axis.duration * Double(samples)).rounded(.up))
            guard sample <= samples else { continue }
            for (index, bytes) in shares(fetch) { values[index][sample] = values[index][sample].saturatingAdding(bytes) }
        }
        for index in values.indices {
            for sample in 1..<values[index].count { values[index][sample] = values[index][sample].saturatingAdding(values[index][sample - 1]) }
        }
        return values
    }

    /// The largest total of any run, for a shared scale.
    static func maximum(_ runs: [[SessionEvent]]) -> Int64 {
        runs.map { Int64.saturatingSum(totals($0)) }.max() ?? 0
    }

    static func render(_ events: [SessionEvent], axis: TimeAxis, maximum: Int64, label: String) -> String {
        let samples = min(240, Int(axis.width / 4))
        let values = cumulative(events, axis: axis, samples: samples)
        let scale = ValueAxis(maximum: Double(max(maximum, 1)), maxTicks: 4)
        let bottomY = top + plotHeight
        func y(_ bytes: Double) -> Double { top + plotHeight * (1 - bytes / scale.top) }
        func x(_ sample: Int) -> Double { axis.left + axis.width * Double(sample) / Double(samples) }
        var svg = SVGBuilder()
        svg.open(width: TimelineChart.width, height: bottomY + bottom, label: label)
        var below = Array(repeating: 0.0, count: samples + 1)
        for (index, kind) in series.enumerated() where values[index].last! > 0 {
            let above = zip(below, values[index]).map { $0 + Double($1) }
            var points = (0...samples).map { (x: x($0), y: y(above[$0])) }
            points += (0...samples).reversed().map { (x: x($0), y: y(below[$0])) }
            svg.polygon(simplified(points), class: ReportStyle.byteClass(kind.origin, hit: kind.hit),
                        title: "\(name(kind)): \(ReportText.bytes(values[index].last!))")
            below = above
        }
        for tick in scale.ticks {
            svg.line(x1: axis.left, y1: y(tick), x2: axis.left + axis.width, y2: y(tick), class: "grid")
            svg.text(shortBytes(tick, top: scale.top), x: axis.left - 6, y: y(tick) + 4, anchor: "end")
        }
        for tick in axis.ticks {
            svg.line(x1: axis.x(tick), y1: bottomY, x2: axis.x(tick), y2: bottomY + 4, class: "axis")
            svg.text(axis.label(tick), x: axis.x(tick), y: bottomY + 16, anchor: "middle")
        }
        svg.line(x1: axis.left, y1: bottomY + 0.5, x2: axis.left + axis.width, y2: bottomY + 0.5, class: "axis")
        if below.last == 0 { svg.text("no fetch events", x: axis.left + 8, y: bottomY - 8) }
        return svg.close()
    }

    /// "playback · network", "prefetch · cache".
    static func name(_ kind: Series) -> String {
        "\(kind.origin.rawValue) · \(kind.hit ? "cache" : "network")"
    }

    /// A tick's bytes in the unit of the axis top: "0", "500 KB", "1.5 MB".
    static func shortBytes(_ value: Double, top: Double) -> String {
        guard value > 0 else { return "0" }
        let (divisor, unit): (Double, String) = top >= 1e9 ? (1e9, "GB") : top >= 1e6 ? (1e6, "MB") : top >= 1e3 ? (1e3, "KB") : (1, "B")
        let text = ReportText.fixed(value / divisor, 1)
        return "\(text.hasSuffix(".0") ? String(text.dropLast(2)) : text) \(unit)"
    }

    /// Drops points in the middle of a straight run (flat stretches where nothing was fetched).
    static func simplified(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        var result: [(x: Double, y: Double)] = []
        for point in points {
            if result.count >= 2 {
                let a = result[result.count - 2], b = result[result.count - 1]
                let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
                if abs(cross) < 1e-6 && (b.x - a.x) * (point.x - b.x) >= 0 { result[result.count - 1] = point; continue }
            }
            result.append(point)
        }
        return result
    }

    /// A table of each series' total per run, with the colour swatches that serve as the legend.
    static func totalsTable(titles: [String], events: [[SessionEvent]]) -> String {
        let totals = events.map(totals)
        var html = "<table class=\"bytes\"><thead><tr><th>read by · from</th>"
        for title in titles { html += "<th>\(ReportText.escape(title))</th>" }
        html += "</tr></thead><tbody>\n"
        for (index, kind) in series.enumerated() {
            html += "<tr><td><span class=\"item\"><span class=\"sw \(ReportStyle.byteClass(kind.origin, hit: kind.hit))\"></span> \(name(kind))</span></td>"
            for run in totals { html += "<td>\(ReportText.bytes(run[index]))</td>" }
            html += "</tr>\n"
        }
        html += "<tr><th>all</th>"
        for run in totals { html += "<th>\(ReportText.bytes(Int64.saturatingSum(run)))</th>" }
        html += "</tr></tbody></table>\n"
        return html
    }
}
