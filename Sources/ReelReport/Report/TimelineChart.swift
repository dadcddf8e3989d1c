import ReelCore
import ReelEngine
import ReelFeed

/// The timeline of one run as inline SVG: a row per card in feed order, time across, the row
/// coloured by the card's visibility state, preload stages as ticks along its top, play spans,
/// first frames, stalls, variant switches and errors on top.
/// Spans are snapped to half pixels and merged, so the size grows with what a person can see,
/// never with the number of events.
enum TimelineChart {
    static let width = 1160.0
    static let labelWidth = 88.0
    static let rightMargin = 16.0
    static let top = 24.0
    static let bottom = 26.0

    /// The time axis shared by the timeline and the bytes chart.
    static func axis(duration: Double) -> TimeAxis {
        TimeAxis(duration: duration, left: labelWidth, width: width - labelWidth - rightMargin)
    }

    /// Row height for `count` cards: tall rows for a few cards, 4 px for hundreds.
    static func rowHeight(cards count: Int) -> Double {
        min(16, max(4, (600 / Double(max(count, 1))).rounded(.down)))
    }

    static func render(_ timeline: SessionTimeline, axis: TimeAxis, label: String) -> String {
        let rowHeight = rowHeight(cards: timeline.cards.count)
        let gap = rowHeight >= 8 ? 1.0 : 0
        let rowsBottom = top + rowHeight * Double(timeline.cards.count)
        let height = rowsBottom + bottom
        var svg = SVGBuilder()
        svg.open(width: width, height: height, label: label)
        svg.rect(x: axis.left, y: top, width: axis.width, height: rowsBottom - top, class: ReportStyle.stateClass(.idle))

        var lastLabelY = -Double.infinity
        for (index, card) in timeline.cards.enumerated() {
            let y = top + rowHeight * Double(index)
            let inner = rowHeight - gap
            let middle = y + inner / 2
            let widget = SessionTimeline.widget(of: card.id)
            let newWidget = index == 0 || SessionTimeline.widget(of: timeline.cards[index - 1].id) != widget
            if newWidget && index > 0 && rowHeight >= 6 {
                svg.line(x1: 4, y1: y - gap / 2, x2: axis.left + axis.width, y2: y - gap / 2, class: "wsep")
            }
            // Labels: every card when rows are tall enough to read, else each widget's first card.
            if rowHeight >= 11 || (newWidget && y + rowHeight / 2 - lastLabelY >= 11) {
                let text = rowHeight >= 11 ? card.id : String(widget)
                let shown = text.count > 12 ? String(text.prefix(11)) + "…" : text
                svg.text(shown, x: labelWidth - 6, y: middle + 3.5, anchor: "end", class: "lab", title: card.id)
                lastLabelY = y + rowHeight / 2
            }
            for span in mergedStates(card.states, axis: axis) where span.state != .idle {
                let title = "\(card.id) · \(span.state.rawValue) · \(ReportText.seconds(span.start))–\(ReportText.seconds(span.end))"
                svg.rect(x: span.x0, y: y, width: span.x1 - span.x0, height: inner, class: ReportStyle.stateClass(span.state),
                         title: span.x1 - span.x0 >= 3 ? title : nil)
            }
            // Each stage reached: a tick from the row's top, taller for a higher stage.
            for stage in card.stages {
                let tick = max(1, inner * (0.2 + 0.2 * stage.value))
                svg.rect(x: axis.x(stage.time) - 0.75, y: y, width: 1.5, height: tick, class: "stage",
                         title: "\(card.id) reached \(stage.text) at \(ReportText.seconds(stage.time))")
            }
            let playHeight = max(2, (rowHeight * 0.36).rounded())
            for play in card.plays {
                let x0 = axis.x(play.start)
                let width = max(1, axis.x(play.end) - x0)
                var title = "\(card.id) played \(ReportText.seconds(play.start))–\(ReportText.seconds(play.end))"
                title += " · " + (play.reason.map { SessionEvent.fileReason($0) == $0.rawValue ? $0.rawValue : "\(SessionEvent.fileReason($0)) (\($0.rawValue))" } ?? "still playing at the end")
                if play.userIntent { title += " · tapped" }
                svg.rect(x: x0, y: middle - playHeight / 2, width: width, height: playHeight, class: "play", title: title)
            }
            for stall in card.stalls {
                let x1 = axis.x(stall.time)
                let x0 = min(axis.x(stall.time - stall.value / 1000), x1 - 2)
                svg.rect(x: x0, y: y, width: x1 - x0, height: inner, class: "stall",
                         title: "\(card.id) stalled \(ReportText.ms(stall.value)), until \(ReportText.seconds(stall.time))")
            }
            let radius = min(4.5, max(2, rowHeight * 0.32))
            for frame in card.firstFrames {
                svg.circle(x: axis.x(frame.time), y: middle, radius: radius, class: frame.value <= 50 ? "ff-fast" : "ff-slow",
                           title: "\(card.id) first frame at \(ReportText.seconds(frame.time)) · TTFF \(ReportText.ms(frame.value))")
            }
            // Variant switches: a triangle pointing up or down at the switch.
            for change in card.switches {
                let x = axis.x(change.time), size = min(4.5, max(2.5, inner / 2))
                let tip = change.value > 0 ? middle - size : middle + size
                let base = change.value > 0 ? middle + size : middle - size
                svg.polygon([(x, tip), (x - size, base), (x + size, base)], class: change.value > 0 ? "sw-up" : "sw-down",
                            title: "\(card.id) variant switch at \(ReportText.seconds(change.time)): \(change.text)")
            }
            for error in card.errors {
                svg.cross(x: axis.x(error.time), y: middle, size: min(4, max(2, inner / 2)), class: "err",
                          title: "\(card.id) error at \(ReportText.seconds(error.time)): \(error.text)")
            }
        }
        for error in timeline.sessionErrors {
            svg.cross(x: axis.x(error.time), y: top - 8, size: 4, class: "err",
                      title: "error at \(ReportText.seconds(error.time)): \(error.text)")
        }
        // Seconds: a grid over the rows, labels below (and above when the rows are tall).
        for tick in axis.ticks {
            let x = axis.x(tick)
            svg.line(x1: x, y1: top, x2: x, y2: rowsBottom, class: "grid")
            svg.text(axis.label(tick), x: x, y: rowsBottom + 16, anchor: "middle")
            if rowsBottom - top > 500 { svg.text(axis.label(tick), x: x, y: top - 5, anchor: "middle") }
        }
        svg.rect(x: axis.left - 0.5, y: top - 0.5, width: axis.width + 1, height: rowsBottom - top + 1, class: "frame")
        if timeline.cards.isEmpty {
            svg.text("no card events", x: axis.left + 8, y: top + 14)
        }
        return svg.close()
    }

    /// A span in pixels.
    struct PixelSpan: Equatable {
        var x0: Double
        var x1: Double
        var start: Double
        var end: Double
        var state: VisibilityState
    }

    /// States snapped to half pixels; spans that vanish are dropped and equal neighbours merged.
    static func mergedStates(_ spans: [SessionTimeline.StateSpan], axis: TimeAxis) -> [PixelSpan] {
        var merged: [PixelSpan] = []
        for span in spans {
            let x0 = axis.snapped(span.start), x1 = axis.snapped(span.end)
            guard x1 > x0 else { continue }
            if var last = merged.last, last.state == span.state, last.x1 == x0 {
                last.x1 = x1
                last.end = span.end
                merged[merged.count - 1] = last
            } else {
                merged.append(PixelSpan(x0: x0, x1: x1, start: span.start, end: span.end, state: span.state))
            }
        }
        return merged
    }
}
