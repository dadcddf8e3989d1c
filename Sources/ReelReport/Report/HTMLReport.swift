import ReelCore
import ReelEngine
import ReelFeed

/// The report of one feed session, or two side by side (`--compare`), as one self-contained HTML
/// page: inline CSS and SVG, no script, font or image from elsewhere. The same runs always give
/// the same bytes.
package struct HTMLReport: Sendable {
    /// One run: its title ("prefetch on"), its events and, when known, its summary.
    package struct Run: Sendable {
        package var title: String
        package var events: [SessionEvent]
        package var summary: SessionSummary?

        package init(title: String, events: [SessionEvent], summary: SessionSummary? = nil) {
            self.title = title
            self.events = events
            self.summary = summary
        }
    }

    package var runs: [Run]

    /// A report of one or two runs.
    package init(runs: [Run]) throws {
        guard (1...2).contains(runs.count) else {
            throw ReelError(.invalidInput, "a report shows one or two runs, not \(runs.count)")
        }
        self.runs = runs
    }

    /// The page.
    package func render() -> String {
        let titles = runs.map(\.title)
        let duration = runs.flatMap { $0.events.map(\.time) }.max() ?? 0
        let axis = TimelineChart.axis(duration: duration)
        let order = SessionTimeline.feedOrder(runs.flatMap { $0.events.compactMap(\.card?.rawValue) })
        let escapedTitles = titles.map(ReportText.escape)

        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<title>Feed session: \(escapedTitles.joined(separator: " vs "))</title>\n"
        html += "<style>\n\(ReportStyle.css)\n</style>\n</head>\n<body>\n<main>\n"
        html += "<h1>Feed session report</h1>\n"
        html += "<p class=\"note\">\(escapedTitles.joined(separator: " compared with ")): \(order.count) cards over \(ReportText.seconds(duration)). Hover over a span or a mark for its details.</p>\n"
        html += "<div class=\"glance\">\n"
        for (index, run) in runs.enumerated() { html += RunGlance(run.events).html(title: run.title, run: index) }
        html += "</div>\n"

        html += "<h2 id=\"timeline\">Timeline</h2>\n"
        html += "<p class=\"note\">One row per card in feed order, time across. The colour is the card's visibility state; the dark bar is a play; the dot its first frame (white within 50 ms of the play's start, yellow later); red marks a stall or an error; a green or orange triangle a switch to a higher or lower variant.</p>\n"
        html += Self.timelineLegend
        for (index, run) in runs.enumerated() {
            html += heading(run.title, index: index, prefix: "Timeline")
            let timeline = SessionTimeline(events: run.events, end: axis.duration, order: order)
            html += TimelineChart.render(timeline, axis: axis, label: "Timeline of \(run.title)")
        }

        html += "<h2 id=\"ttff\">Time to first frame</h2>\n"
        html += "<p class=\"note\">Plays by time from playStart to the first frame, on a log scale; a dashed line in a run's colour marks its median, the grey one the 50 ms goal.</p>\n"
        html += "<div class=\"legend\">"
        for (index, run) in runs.enumerated() {
            let ttffs = Distribution(Self.ttffs(run.events))
            var text = "\(run.title): \(ttffs.count) first frame\(ttffs.count == 1 ? "" : "s")"
            if !ttffs.isEmpty { text += ", median \(ReportText.ms(ttffs.p50)), p95 \(ReportText.ms(ttffs.p95))" }
            html += "<span class=\"item\"><span class=\"sw \(ReportStyle.runClass(index))\"></span> \(ReportText.escape(text))</span>"
        }
        html += "</div>\n"
        html += TTFFHistogram.render(runs: runs.map { (title: $0.title, ttffs: Self.ttffs($0.events)) })

        html += "<h2 id=\"bytes\">Bytes over time</h2>\n"
        html += "<p class=\"note\">Bytes read so far, stacked by who read them (a player, the prefetcher, a thumbnail) and from where (dark: the network; light: the cache). The time axis is the timeline's.</p>\n"
        html += BytesChart.totalsTable(titles: titles, events: runs.map(\.events))
        let maximum = BytesChart.maximum(runs.map(\.events))
        for (index, run) in runs.enumerated() {
            if runs.count > 1 { html += heading(run.title, index: index, prefix: "Bytes") }
            html += BytesChart.render(run.events, axis: axis, maximum: maximum, label: "Bytes read over time in \(run.title)")
        }

        html += "<h2 id=\"summary\">Summary</h2>\n"
        html += SummaryTable.render(titles: titles, summaries: runs.map(\.summary))
        html += "<p class=\"note\">Written by <code>reel feed run</code> or <code>reel feed report</code>.</p>\n"
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    private func heading(_ title: String, index: Int, prefix: String) -> String {
        "<h3><span class=\"item\"><span class=\"sw \(ReportStyle.runClass(index))\"></span> \(prefix): \(ReportText.escape(title))</span></h3>\n"
    }

    static func ttffs(_ events: [SessionEvent]) -> [Double] {
        events.compactMap { event in
            if case .firstFrame(let event) = event.kind { return event.ttffMs }
            return nil
        }
    }

    /// Swatches for every visibility state and mark of the timeline, a line each.
    static var timelineLegend: String {
        var html = "<div class=\"legend\"><span class=\"key\">states</span>"
        for state in VisibilityState.allCases {
            html += "<span class=\"item\"><span class=\"sw \(ReportStyle.stateClass(state))\"></span> \(state.rawValue)</span>"
        }
        html += "</div>\n<div class=\"legend\"><span class=\"key\">marks</span>"
        html += "<span class=\"item\"><span class=\"sw line play\" style=\"background:\(ReportStyle.playColor)\"></span> playing</span>"
        html += "<span class=\"item\"><span class=\"sw dot ff-fast\"></span> first frame within 50 ms</span>"
        html += "<span class=\"item\"><span class=\"sw dot ff-slow\"></span> first frame later</span>"
        html += "<span class=\"item\"><span class=\"sw stall\"></span> stall</span>"
        html += "<span class=\"item\"><span class=\"sw line stage\"></span> preload stage reached (taller: manifest, media, first frame)</span>"
        html += "<span class=\"item\"><span style=\"color:#16a34a\">▲</span><span style=\"color:#ea580c\">▼</span> variant switch up, down</span>"
        html += "<span class=\"item\"><span style=\"color:\(ReportStyle.problemColor);font-weight:700\">×</span> error</span>"
        return html + "</div>\n"
    }
}
