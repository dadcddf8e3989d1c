import Foundation
import OrderedCollections
import ReelCore
@testable import ReelEngine
import ReelFeed
@testable import ReelReport
import Testing

/// The HTML report: one self-contained page with every view, text escaped, the same bytes for the
/// same runs, and a size that stays bounded for long sessions with many cards.
@Suite("HTML report")
struct HTMLReportTests {
    static func summary(plays: Int, p50: Double) -> SessionSummary {
        var summary = SessionSummary()
        summary.plays = plays
        summary.ttffMs.p50 = p50
        summary.cdn.bytes = 1_000_000
        summary.cacheHitRatio = 0.25
        return summary
    }

    static func twoRuns() throws -> HTMLReport {
        try HTMLReport(runs: [
            .init(title: "prefetch on", events: SyntheticSession.events(widgets: 12, seconds: 40), summary: summary(plays: 9, p50: 20)),
            .init(title: "prefetch=off", events: SyntheticSession.events(widgets: 12, seconds: 40, prefetch: false),
                  summary: summary(plays: 9, p50: 300)),
        ])
    }

    @Test func textFromTheEventsIsEscaped() throws {
        let card: CardID = "s1/<b>&\"x\""
        let events = [
            SessionEvent(time: 0, kind: .visibility(card: card, from: .idle, to: .mounted)),
            SessionEvent(time: 0.5, kind: .playStart(card: card, widget: "s1", widgetType: .short, userIntent: false)),
            SessionEvent(time: 0.52, kind: .firstFrame(card: card, ttffMs: 20)),
            SessionEvent(time: 1, kind: .error(card: card, message: "<script>alert('x')</script>")),
            SessionEvent(time: 1.5, kind: .error(card: nil, message: "a & b <i>")),
            SessionEvent(time: 2, kind: .fetch(url: "http://h/<a>&b", bytes: 10, cacheBytes: 0, cacheHit: false, origin: .playback, card: card)),
        ]
        let html = try HTMLReport(runs: [.init(title: "<run> & \"co\"", events: events)]).render()
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>"))
        #expect(!html.contains("<i>"))
        #expect(!html.contains("<run>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(html.contains("s1/&lt;b&gt;&amp;&quot;x&quot;"))
        #expect(html.contains("&lt;run&gt; &amp; &quot;co&quot;"))
        #expect(html.contains("a &amp; b &lt;i&gt;"))
        #expect(ReportText.escape("<a href='x'>&</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;")
    }

    @Test func theSameRunsGiveTheSameBytes() throws {
        let first = try Self.twoRuns().render()
        let second = try Self.twoRuns().render()
        #expect(first == second)
        // Events that tie in time keep their file order, however the list was built.
        let events = SyntheticSession.events(widgets: 8, seconds: 20)
        let copy = events.map { $0 }
        #expect(try HTMLReport(runs: [.init(title: "a", events: events)]).render()
                == HTMLReport(runs: [.init(title: "a", events: copy)]).render())
    }

    @Test func everyViewIsThere() throws {
        let report = try Self.twoRuns()
        let html = report.render()
        for id in ["timeline", "ttff", "bytes", "summary"] {
            #expect(html.contains("<h2 id=\"\(id)\">"), "no \(id) section")
        }
        // Two timelines, one histogram, two byte charts.
        #expect(html.components(separatedBy: "<svg ").count - 1 == 5)
        #expect(html.contains("Timeline: prefetch on") && html.contains("Timeline: prefetch=off"))
        #expect(html.contains("aria-label=\"Histogram of time to first frame\""))
        // Every key of the summary, and the b/a column.
        for key in SummaryTable.flattened(SessionSummary().json).keys {
            #expect(html.contains("<td>\(key)</td>"), "summary key \(key) missing")
        }
        #expect(html.contains("<th>prefetch=off / prefetch on</th>"))
        #expect(html.contains("<td>15.0×</td>"), "ttffMs.p50 ratio 300 / 20")
        // Each origin and cache source in the bytes legend.
        for origin in SessionEvent.Origin.allCases {
            #expect(html.contains("\(origin.rawValue) · network") && html.contains("\(origin.rawValue) · cache"))
        }
    }

    @Test func aRunWithoutSummaryStillGetsItsViews() throws {
        let html = try HTMLReport(runs: [.init(title: "alone", events: SyntheticSession.events(widgets: 5, seconds: 10))]).render()
        #expect(html.contains("No summary was given"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 3)
        #expect(throws: ReelError.self) { try HTMLReport(runs: []) }
    }

    @Test func thePageNeedsNothingFromElsewhere() throws {
        let html = try Self.twoRuns().render().replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        for needle in ["http:", "https:", "<script", "<link", "<img", "@import", "url(", " src=", "<iframe"] {
            #expect(!html.contains(needle), "the page refers outside itself: \(needle)")
        }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<meta charset=\"utf-8\">"))
    }

    @Test func eachStateHasItsOwnColourInTheChartAndTheLegend() throws {
        let colors = VisibilityState.allCases.map(ReportStyle.color(of:))
        #expect(Set(colors).count == colors.count, "two states share a colour")
        let css = ReportStyle.css
        for state in VisibilityState.allCases {
            #expect(css.contains(".st-\(state.rawValue){fill:\(ReportStyle.color(of: state));background:\(ReportStyle.color(of: state))}"))
        }
        // One card through every state: each drawn with its class, each in the legend.
        var events: [SessionEvent] = []
        var previous = VisibilityState.idle
        for (index, state) in VisibilityState.allCases.dropFirst().enumerated() {
            events.append(SessionEvent(time: Double(index + 1), kind: .visibility(card: "s0/0", from: previous, to: state)))
            previous = state
        }
        events.append(SessionEvent(time: 10, kind: .visibility(card: "s0/0", from: previous, to: .idle)))
        let html = try HTMLReport(runs: [.init(title: "states", events: events)]).render()
        for state in VisibilityState.allCases {
            #expect(html.contains("class=\"st-\(state.rawValue)\""), "\(state) not drawn")
            #expect(html.contains("<span class=\"sw st-\(state.rawValue)\"></span> \(state.rawValue)"), "\(state) not in the legend")
        }
    }

    @Test func aTenMinuteSessionOfThreeHundredCardsStaysSmall() throws {
        var events = SyntheticSession.events(widgets: 210, seconds: 600)
        // A card flickering every 5 ms for the whole session: 120,000 transitions.
        var state = VisibilityState.ready
        for step in 0..<120_000 {
            let next: VisibilityState = state == .ready ? .active : .ready
            events.append(SessionEvent(time: Double(step) * 0.005, kind: .visibility(card: "s0/0", from: state, to: next)))
            state = next
        }
        let cards = Set(events.compactMap(\.card)).count
        let html = try HTMLReport(runs: [
            .init(title: "on", events: events),
            .init(title: "off", events: SyntheticSession.events(widgets: 210, seconds: 600, prefetch: false)),
        ]).render()
        let elements = html.components(separatedBy: "<rect ").count + html.components(separatedBy: "<circle ").count
        print("report of \(cards) cards over 600 s, \(events.count) events: \(html.utf8.count) bytes, \(elements) rects and circles")
        #expect(cards >= 300)
        #expect(html.utf8.count < 1_500_000)
        // The flickering row takes at most one rect per half pixel.
        let flicker = SessionTimeline(events: events, end: 600, order: ["s0/0"]).cards[0]
        let spans = TimelineChart.mergedStates(flicker.states, axis: TimelineChart.axis(duration: 600))
        #expect(spans.count <= Int(TimelineChart.axis(duration: 600).width * 2) + 1)
        #expect(flicker.states.count > 100_000)
    }
}
