import Foundation
import ReelCore

/// A sweep's report as one self-contained HTML page (inline CSS and SVG): the trade-off chart
/// (CDN bytes per byte played against plays within 50 ms, one point per setting with its 95%
/// intervals), every setting against the baseline per metric, broken down by pattern and by
/// profile, and the cells with links to their own session reports.
package struct SweepPage: Sendable {
    package var matrix: SweepMatrix
    package var analysis: SweepAnalysis
    package var overall: [String: [String: MeanInterval]]
    /// Where each cell's report is, relative to the page (nil: no link).
    package var cellLinks: [String: String]

    package init(matrix: SweepMatrix, analysis: SweepAnalysis, overall: [String: [String: MeanInterval]],
                cellLinks: [String: String]) {
        self.matrix = matrix
        self.analysis = analysis
        self.overall = overall
        self.cellLinks = cellLinks
    }

    package func render() -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<title>Feed sweep \(ReportText.escape(matrix.id))</title>\n"
        html += "<style>\n\(ReportStyle.css)\n\(Self.css)\n</style>\n</head>\n<body>\n<main>\n"
        html += "<h1>Feed sweep report</h1>\n"
        let done = analysis.cells - analysis.failedCells.count - analysis.missingCells.count
        html += "<p class=\"note\">\(analysis.cells) cells (\(matrix.traces.count) traces × \(matrix.profiles.count) profiles × \(matrix.settings.count) settings): \(done) done, \(analysis.failedCells.count) failed, \(analysis.missingCells.count) missing. Figures are means over cells with their 95% intervals (Student's t, kept within what the figure can be); a setting is compared with the baseline over the same traces and profiles.</p>\n"
        if analysis.comparisons.contains(where: { $0.value.n < Self.minimumSessions }) || matrix.settings.count == 1 {
            html += "<p class=\"note few\">Too few sessions: a figure over fewer than \(Self.minimumSessions) sessions is marked so; its interval is too wide to tell settings apart. Add seeds (<code>--seeds 1-5</code>) or traces.</p>\n"
        }
        if !matrix.shared.isEmpty {
            html += "<p class=\"note\">Every cell: <code>\(ReportText.escape(matrix.shared.joined(separator: " ")))</code></p>\n"
        }
        html += "<h2>Trade-off</h2>\n"
        html += "<p class=\"note\">One point per setting over all its cells: CDN bytes per byte played (lower is cheaper) against plays whose first frame came within 50 ms (higher is better). Whiskers are the 95% intervals.</p>\n"
        html += chart()
        html += "<h2>Settings against the baseline</h2>\n"
        // The rows of each table, sorted out once (not searched again for every table).
        let tables = Dictionary(grouping: analysis.comparisons) { Group(pattern: $0.pattern, profile: $0.profile) }
        html += comparisonTable(tables[Group(pattern: nil, profile: nil)] ?? [])
        for pattern in Array(Set(matrix.traces.map(\.pattern))).sorted() {
            html += "<h3>Pattern \(ReportText.escape(pattern))</h3>\n" + comparisonTable(tables[Group(pattern: pattern, profile: nil)] ?? [])
        }
        for profile in matrix.profiles {
            html += "<h3>Profile \(ReportText.escape(profile))</h3>\n" + comparisonTable(tables[Group(pattern: nil, profile: profile)] ?? [])
        }
        html += "<h2>Cells</h2>\n" + cellTable()
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    static let css = [
        "table.sweep{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:13px;margin:6px 0 14px}",
        "table.sweep th,table.sweep td{padding:3px 12px;border-bottom:1px solid #e5e7eb;text-align:right}",
        "table.sweep th:first-child,table.sweep td:first-child{text-align:left}",
        "table.sweep td.better{color:#15803d}table.sweep td.worse{color:#b91c1c}",
        ".pt{stroke:#111827;stroke-width:1}.whisker{stroke:#374151;stroke-width:1.2}",
    ].joined(separator: "\n")

    /// A figure for people, in its metric's unit.
    package static func text(_ value: Double?, _ unit: SweepMetric.Unit) -> String {
        guard let value, value.isFinite else { return "–" }
        switch unit {
        case .ratio: return ReportText.percent(value)
        case .milliseconds: return ReportText.ms(value)
        case .count: return ReportText.fixed(value, 2)
        // Past what Int64 holds (a summary's count near Int64.min or max), Swift's own form.
        case .bytes: return value.magnitude < 9e18 ? ReportText.bytes(Int64(value.rounded())) : ReportText.fixed(value, 0) + " B"
        case .factor: return ReportText.fixed(value, 3)
        }
    }

    /// Below this many sessions a mean's interval is too wide to tell settings apart: its
    /// figures carry a "too few sessions" note.
    package static let minimumSessions = 5

    package static func interval(_ figure: MeanInterval, _ unit: SweepMetric.Unit) -> String {
        guard figure.mean != nil else { return "–" }
        var text = Self.text(figure.mean, unit)
        if let low = figure.ciLow, let high = figure.ciHigh { text += " [\(Self.text(low, unit)), \(Self.text(high, unit))]" }
        return text + (figure.n < minimumSessions ? " (n=\(figure.n), too few sessions)" : " (n=\(figure.n))")
    }

    /// The setting's mean over the baseline's, with the difference in milliseconds beside it on
    /// a base under a millisecond (`RatioText`).
    package static func ratio(_ row: SweepAnalysis.Comparison, _ unit: SweepMetric.Unit) -> String {
        guard let x = row.baseline.mean, let y = row.value.mean,
              let text = RatioText.ratio(base: x, value: y, milliseconds: unit == .milliseconds) else { return "–" }
        return text
    }

    /// A paired difference with its sign.
    static func signed(_ figure: MeanInterval, _ unit: SweepMetric.Unit) -> String {
        guard let mean = figure.mean else { return "–" }
        func one(_ value: Double) -> String {
            let magnitude = unit == .ratio ? ReportText.fixed(abs(value) * 100, 1) + " pts" : Self.text(abs(value), unit)
            return (value < 0 ? "−" : "+") + magnitude
        }
        var text = one(mean)
        if let low = figure.ciLow, let high = figure.ciHigh { text += " [\(one(low)), \(one(high))]" }
        return text
    }

    /// A table's rows: over every cell (both nil), one pattern's or one profile's.
    private struct Group: Hashable {
        var pattern: String?
        var profile: String?
    }

    private func comparisonTable(_ rows: [SweepAnalysis.Comparison]) -> String {
        guard !rows.isEmpty else { return "<p class=\"note\">No setting besides the baseline.</p>\n" }
        var html = "<table class=\"sweep\"><thead><tr><th>setting</th><th>metric</th><th>baseline</th><th>setting</th><th>ratio</th><th>paired difference</th></tr></thead><tbody>\n"
        for row in rows {
            guard let metric = SweepMetric.named(row.metric) else { continue }
            // Green or red when the paired difference's interval excludes 0.
            var verdict = ""
            if let low = row.difference.ciLow, let high = row.difference.ciHigh, low > 0 || high < 0 {
                let better = metric.higherIsBetter == (low > 0)
                verdict = better ? " class=\"better\"" : " class=\"worse\""
            }
            html += "<tr><td>\(ReportText.escape(row.setting))</td><td>\(ReportText.escape(metric.label))</td>"
            html += "<td>\(ReportText.escape(Self.interval(row.baseline, metric.unit)))</td>"
            html += "<td\(verdict)>\(ReportText.escape(Self.interval(row.value, metric.unit)))</td>"
            html += "<td>\(ReportText.escape(Self.ratio(row, metric.unit)))</td>"
            html += "<td>\(ReportText.escape(Self.signed(row.difference, metric.unit)))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private func cellTable() -> String {
        let failures = Dictionary(analysis.failedCells.map { ($0.cell, $0.message) }, uniquingKeysWith: { first, _ in first })
        let missing = Set(analysis.missingCells)
        var html = "<table class=\"sweep\"><thead><tr><th>cell</th><th>trace</th><th>profile</th><th>setting</th><th>state</th></tr></thead><tbody>\n"
        for cell in matrix.cells {
            let name = ReportText.escape(cell.id)
            let link = cellLinks[cell.id].map { "<a href=\"\(ReportText.escape($0))\">\(name)</a>" } ?? name
            let state = failures[cell.id].map { "failed: \($0)" } ?? (missing.contains(cell.id) ? "missing" : "done")
            html += "<tr><td><code>\(link)</code></td><td>\(ReportText.escape(cell.trace))</td><td>\(ReportText.escape(cell.profile))</td>"
            html += "<td>\(ReportText.escape(cell.setting))</td><td>\(ReportText.escape(state))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// The trade-off chart: one point per setting, whiskers its intervals.
    private func chart() -> String {
        let xKey = "cdnBytesPerBytePlayed", yKey = "startedWithin50msRatio"
        let points = matrix.settings.compactMap { setting -> (String, MeanInterval, MeanInterval)? in
            guard let x = overall[xKey]?[setting.id], let y = overall[yKey]?[setting.id], x.mean != nil, y.mean != nil else { return nil }
            return (setting.id, x, y)
        }
        guard !points.isEmpty else { return "<p class=\"note\">No cell has both figures yet.</p>\n" }
        let xs = points.flatMap { [$0.1.ciLow ?? $0.1.mean!, $0.1.ciHigh ?? $0.1.mean!] }
        let ys = points.flatMap { [$0.2.ciLow ?? $0.2.mean!, $0.2.ciHigh ?? $0.2.mean!] }
        let xMin = max(0, (xs.min() ?? 0) * 0.95), xMax = max(xMin + 0.01, (xs.max() ?? 1) * 1.05)
        let yMin = max(0, min(ys.min() ?? 0, 1) - 0.05), yMax = min(1, max(ys.max() ?? 1, yMin + 0.1) + 0.05)
        let width = 720.0, height = 390.0, left = 70.0, right = 20.0, top = 30.0, bottom = 50.0
        let plotW = width - left - right, plotH = height - top - bottom
        func x(_ value: Double) -> Double { left + (value - xMin) / (xMax - xMin) * plotW }
        func y(_ value: Double) -> Double { top + (1 - (value - yMin) / (yMax - yMin)) * plotH }
        var svg = SVGBuilder()
        svg.open(width: width, height: height, label: "CDN bytes per byte played against plays within 50 ms, per setting")
        svg.rect(x: left, y: top, width: plotW, height: plotH, class: "frame")
        for step in 0...4 {
            let fx = xMin + (xMax - xMin) * Double(step) / 4, fy = yMin + (yMax - yMin) * Double(step) / 4
            svg.line(x1: x(fx), y1: top, x2: x(fx), y2: top + plotH, class: "grid")
            svg.line(x1: left, y1: y(fy), x2: left + plotW, y2: y(fy), class: "grid")
            svg.text(ReportText.fixed(fx, 2), x: x(fx), y: top + plotH + 14, anchor: "middle", class: "lab")
            svg.text(ReportText.percent(fy), x: left - 6, y: y(fy) + 3, anchor: "end", class: "lab")
        }
        svg.text("CDN bytes per byte played", x: left + plotW / 2, y: height - 12, anchor: "middle")
        svg.text("plays within 50 ms", x: left, y: top - 6, anchor: "start")
        // Whiskers end at the plot's edges: a long interval stops at the frame, never across the title.
        func clampX(_ value: Double) -> Double { min(max(x(value), left), left + plotW) }
        func clampY(_ value: Double) -> Double { min(max(y(value), top), top + plotH) }
        for (index, point) in points.enumerated() {
            let (name, px, py) = point
            let cx = clampX(px.mean!), cy = clampY(py.mean!)
            if let low = px.ciLow, let high = px.ciHigh { svg.line(x1: clampX(low), y1: cy, x2: clampX(high), y2: cy, class: "whisker") }
            if let low = py.ciLow, let high = py.ciHigh { svg.line(x1: cx, y1: clampY(low), x2: cx, y2: clampY(high), class: "whisker") }
            let title = "\(name): \(Self.interval(px, .factor)) CDN bytes per byte played, \(Self.interval(py, .ratio)) within 50 ms"
            svg.circle(x: cx, y: cy, radius: 6, class: "pt \(ReportStyle.runClass(index))", title: title)
            svg.text(name, x: cx + 9, y: cy - 8, class: "lab")
        }
        return svg.close()
    }
}
