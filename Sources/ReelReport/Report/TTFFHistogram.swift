import Foundation
import ReelCore

/// The distribution of time to first frame as inline SVG: plays per bin on a log scale of
/// milliseconds (so 15 ms and 400 ms both get room), one bar colour per run, dashed lines at
/// each run's median and at the 50 ms goal. The scale always spans 5 to 500 ms at least, so
/// reports compare at a glance.
enum TTFFHistogram {
    static let width = 1160.0
    static let left = 56.0
    static let right = 16.0
    static let top = 26.0
    static let plotHeight = 220.0
    static let bottom = 44.0
    static let goalMs = 50.0

    /// Bin edges in ms from 0.1 ms: the R10 preferred numbers (1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5,
    /// 6.3, 8) times powers of ten, ten bins of nearly equal width per decade.
    static let mantissas = [1.0, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8]

    static func edge(_ index: Int) -> Double {
        var value = mantissas[index % mantissas.count] * 100
        for _ in 0..<(index / mantissas.count) { value *= 10 }
        return (value / 1000 * 1000).rounded() / 1000
    }

    /// Whether edge `index` is 1, 2 or 5 times a power of ten (the labelled ones).
    static func isRound(_ index: Int) -> Bool { [0, 3, 7].contains(index % mantissas.count) }

    /// The indices of the edges from the last at or below the smallest value to the first above
    /// the largest, 5 to 500 ms always in range; up to 1,000 s at most (slower ones count in the
    /// last bin).
    static func edgeIndices(covering values: [Double]) -> ClosedRange<Int> {
        let low = max(min(values.min() ?? goalMs, goalMs / 10), 0.1)
        let high = min(max(values.max() ?? goalMs, goalMs * 10), 1_000_000)
        var first = 0
        while edge(first + 1) <= low { first += 1 }
        var last = first + 1
        while edge(last) <= high { last += 1 }
        return first...last
    }

    /// Plays per bin for each run; values below the first edge count in the first bin.
    static func counts(_ values: [Double], edges: [Double]) -> [Int] {
        var counts = Array(repeating: 0, count: max(edges.count - 1, 0))
        for value in values where !counts.isEmpty {
            let bin = edges.lastIndex { $0 <= value } ?? 0
            counts[min(bin, counts.count - 1)] += 1
        }
        return counts
    }

    static func render(runs: [(title: String, ttffs: [Double])]) -> String {
        let all = runs.flatMap(\.ttffs)
        let height = top + plotHeight + bottom
        var svg = SVGBuilder()
        svg.open(width: width, height: height, label: "Histogram of time to first frame")
        guard !all.isEmpty else {
            svg.text("no first frames in the events", x: left, y: top + 20)
            return svg.close()
        }
        let indices = edgeIndices(covering: all)
        let edges = indices.map(Self.edge)
        let counts = runs.map { Self.counts($0.ttffs, edges: edges) }
        let axis = ValueAxis(maximum: Double(counts.flatMap { $0 }.max() ?? 1), maxTicks: 5)
        let plotWidth = width - left - right
        let logLow = log10(edges.first!), logHigh = log10(edges.last!)
        func x(_ ms: Double) -> Double { left + plotWidth * (log10(max(ms, edges.first!)) - logLow) / (logHigh - logLow) }
        func y(_ count: Double) -> Double { top + plotHeight * (1 - count / axis.top) }
        let bottomY = top + plotHeight

        for tick in axis.ticks {
            svg.line(x1: left, y1: y(tick), x2: left + plotWidth, y2: y(tick), class: "grid")
            svg.text(ReportText.fixed(tick, 0), x: left - 6, y: y(tick) + 4, anchor: "end")
        }
        svg.text("plays", x: left - 6, y: top - 10, anchor: "end")
        for bin in 0..<(edges.count - 1) {
            let x0 = x(edges[bin]) + 1, x1 = x(edges[bin + 1]) - 1
            let barWidth = (x1 - x0) / Double(max(runs.count, 1))
            for (run, values) in counts.enumerated() where values[bin] > 0 {
                let top = y(Double(values[bin]))
                let range = "\(number(edges[bin]))–\(number(edges[bin + 1])) ms"
                svg.rect(x: x0 + barWidth * Double(run), y: top, width: barWidth, height: bottomY - top,
                         class: ReportStyle.runClass(run),
                         title: "\(runs[run].title): \(values[bin]) play\(values[bin] == 1 ? "" : "s") with TTFF \(range)")
            }
        }
        // Labels on the 1-2-5 edges only, so they never crowd.
        for index in indices where isRound(index) {
            let edge = edge(index)
            svg.line(x1: x(edge), y1: bottomY, x2: x(edge), y2: bottomY + 4, class: "axis")
            svg.text(number(edge), x: x(edge), y: bottomY + 16, anchor: "middle")
        }
        svg.line(x1: left, y1: bottomY + 0.5, x2: left + plotWidth, y2: bottomY + 0.5, class: "axis")
        svg.text("time to first frame, ms (log scale)", x: left + plotWidth / 2, y: bottomY + 36, anchor: "middle")
        svg.line(x1: x(goalMs), y1: top - 4, x2: x(goalMs), y2: bottomY, class: "goal")
        svg.text("50 ms goal", x: x(goalMs), y: top - 8, anchor: "middle", class: "lab")
        // Medians: a dashed line in the run's colour over a white halo, visible on its own bars.
        for (run, values) in runs.enumerated() {
            guard let p50 = Distribution(values.ttffs).p50 else { continue }
            svg.line(x1: x(p50), y1: top, x2: x(p50), y2: bottomY, class: "halo")
            svg.line(x1: x(p50), y1: top, x2: x(p50), y2: bottomY, class: ReportStyle.runClass(run) + "-line",
                     title: "\(runs[run].title): median TTFF \(ReportText.ms(p50))")
        }
        return svg.close()
    }

    /// An edge as people write it: "1.25", "20", "1000".
    static func number(_ value: Double) -> String {
        guard value < 10 else { return ReportText.fixed(value, 0) }
        var text = ReportText.fixed(value, 2)
        while text.hasSuffix("0") { text.removeLast() }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
