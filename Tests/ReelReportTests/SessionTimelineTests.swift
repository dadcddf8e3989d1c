import OrderedCollections
import ReelCore
import ReelFeed
@testable import ReelEngine
@testable import ReelReport
import Testing

/// What the report's views compute before drawing: cards in feed order, state and play spans,
/// merged pixel spans, histogram bins, axes, number formats.
@Suite("Report views")
struct SessionTimelineTests {
    @Test func cardsComeInFeedOrder() {
        let ids = ["m11/0", "c10/2", "s2/0", "c10/0", "weird", "s2/1", "c10/10", "s0/0", "x/y", "c10/1"]
        #expect(SessionTimeline.feedOrder(ids) == ["s0/0", "s2/0", "s2/1", "c10/0", "c10/1", "c10/2", "c10/10", "m11/0", "weird", "x/y"])
        #expect(SessionTimeline.feedOrder(["s1/0", "s1/0"]) == ["s1/0"])
    }

    @Test func variantSwitchesAreMarkedOnTheirCardsRowUpOrDown() {
        let events = [
            SessionEvent(time: 1, kind: .playStart(card: "s0/0", widget: "s0", widgetType: .short, userIntent: false)),
            SessionEvent(time: 3, kind: .variantSwitch(card: "s0/0", segment: 2, from: "http://h/s15/720p/index.m3u8",
                                                       to: "http://h/s15/360p/index.m3u8", reason: "down-stall")),
            SessionEvent(time: 6, kind: .variantSwitch(card: "s0/0", segment: 4, from: "http://h/s15/360p/index.m3u8",
                                                       to: "http://h/s15/720p/index.m3u8", reason: "up")),
        ]
        let timeline = SessionTimeline(events: events, end: 8, order: ["s0/0"])
        #expect(timeline.cards[0].switches.map(\.value) == [-1, 1])
        #expect(timeline.cards[0].switches[0].text == "segment 2: down-stall, 720p to 360p")
        let svg = TimelineChart.render(timeline, axis: TimelineChart.axis(duration: 8), label: "run")
        #expect(svg.contains("class=\"sw-down\"") && svg.contains("class=\"sw-up\""))
        #expect(svg.contains("variant switch at"))
    }

    @Test func eventsFoldIntoSpansPerCard() {
        let events = [
            SessionEvent(time: 1, kind: .visibility(card: "s0/0", from: .idle, to: .prefetch)),
            SessionEvent(time: 2, kind: .visibility(card: "s0/0", from: .prefetch, to: .mounted)),
            SessionEvent(time: 3, kind: .visibility(card: "s0/0", from: .mounted, to: .active)),
            SessionEvent(time: 3, kind: .playStart(card: "s0/0", widget: "s0", widgetType: .short, userIntent: true)),
            SessionEvent(time: 3.02, kind: .firstFrame(card: "s0/0", ttffMs: 20)),
            SessionEvent(time: 5, kind: .stall(card: "s0/0", ms: 300)),
            SessionEvent(time: 6, kind: .playStop(card: "s0/0", reason: .ended)),
            SessionEvent(time: 7, kind: .playStart(card: "c1/0", widget: "c1", widgetType: .carousel, userIntent: false)),
            SessionEvent(time: 8, kind: .error(card: nil, message: "boom")),
        ]
        let timeline = SessionTimeline(events: events.reversed(), end: 10, order: ["s0/0", "c1/0", "s9/0"])
        let card = timeline.cards[0]
        #expect(card.states.map(\.state) == [.idle, .prefetch, .mounted, .active])
        #expect(card.states.last == .init(start: 3, end: 10, state: .active))
        #expect(card.plays == [.init(start: 3, end: 6, reason: .ended, userIntent: true)])
        #expect(card.firstFrames.map(\.value) == [20])
        #expect(card.stalls.map(\.value) == [300])
        // A play still open at the end runs to the end; a card without events has an empty row.
        #expect(timeline.cards[1].plays == [.init(start: 7, end: 10, reason: nil, userIntent: false)])
        #expect(timeline.cards[2].states.isEmpty)
        #expect(timeline.sessionErrors.map(\.text) == ["boom"])
    }

    @Test func spansThinnerThanHalfAPixelMergeIntoTheirNeighbours() {
        let axis = TimeAxis(duration: 100, left: 0, width: 100)
        let spans: [SessionTimeline.StateSpan] = [
            .init(start: 0, end: 10, state: .mounted),
            .init(start: 10, end: 10.1, state: .ready),
            .init(start: 10.1, end: 20, state: .mounted),
            .init(start: 20, end: 30, state: .active),
        ]
        let merged = TimelineChart.mergedStates(spans, axis: axis)
        #expect(merged.map(\.state) == [.mounted, .active])
        #expect(merged.map(\.x0) == [0, 20])
        #expect(merged.map(\.x1) == [20, 30])
    }

    @Test func histogramBinsHoldEveryPlay() {
        let values = [0.05, 3, 12, 19.9, 20, 48, 51, 250, 4000]
        let indices = TTFFHistogram.edgeIndices(covering: values)
        let edges = indices.map(TTFFHistogram.edge)
        #expect(edges.first! <= 0.1 && edges.last! > 4000)
        #expect(zip(edges, edges.dropFirst()).allSatisfy { $0 < $1 })
        #expect(TTFFHistogram.counts(values, edges: edges).reduce(0, +) == values.count)
        // The scale always spans 5 to 500 ms.
        let narrow = TTFFHistogram.edgeIndices(covering: [20, 21]).map(TTFFHistogram.edge)
        #expect(narrow.first! <= 5 && narrow.last! > 500)
        #expect(TTFFHistogram.edge(3) == 0.2 && TTFFHistogram.edge(17) == 5 && TTFFHistogram.edge(25) == 31.5)
    }

    @Test func axesPickRoundTicks() {
        let short = TimeAxis(duration: 45, left: 0, width: 900)
        #expect(short.ticks == [0, 5, 10, 15, 20, 25, 30, 35, 40, 45])
        #expect(short.label(10) == "10 s")
        let long = TimeAxis(duration: 600, left: 0, width: 900)
        #expect(long.step == 60)
        #expect(long.label(90) == "1:30")
        let bytes = ValueAxis(maximum: 12_300_000, maxTicks: 4)
        #expect(bytes.step == 5_000_000 && bytes.top == 15_000_000)
        #expect(BytesChart.shortBytes(2_500_000, top: bytes.top) == "2.5 MB")
    }

    @Test func numbersAreWrittenTheSameEverywhere() {
        #expect(ReportText.fixed(1.005, 2) == "1.01" || ReportText.fixed(1.005, 2) == "1.00")
        #expect(ReportText.fixed(-0.04, 1) == "0.0")
        #expect(ReportText.fixed(12.5, 0) == "13")
        #expect(ReportText.coordinate(12.04) == "12")
        #expect(ReportText.coordinate(12.25) == "12.3")
        #expect(ReportText.grouped(12_345_678) == "12,345,678")
        #expect(ReportText.bytes(950) == "950 B")
        #expect(ReportText.bytes(12_345_678) == "12.3 MB")
        #expect(ReportText.ms(4.256) == "4.26 ms" && ReportText.ms(350.4) == "350 ms")
        #expect(SummaryTable.format(.double(0.935), key: "cacheHitRatio") == "93.5 %")
        #expect(SummaryTable.format(.int(2_000_000), key: "cdn.bytes") == "2.00 MB")
        #expect(SummaryTable.format(.double(18.25), key: "ttffMs.p50") == "18.3 ms")
        #expect(SummaryTable.format(.null, key: "ttffMs.p50") == "–", "a missing figure (no first frame) is a dash")
    }

    @Test func bytesAccumulateBySeries() {
        let events = [
            SessionEvent(time: 1, kind: .fetch(url: "a", bytes: 100, cacheBytes: 0, cacheHit: false, origin: .prefetch, card: nil)),
            SessionEvent(time: 2, kind: .fetch(url: "b", bytes: 50, cacheBytes: 50, cacheHit: true, origin: .playback, card: "s0/0")),
            SessionEvent(time: 9, kind: .fetch(url: "c", bytes: 25, cacheBytes: 0, cacheHit: false, origin: .thumbnail, card: "s0/0")),
        ]
        let axis = TimeAxis(duration: 10, left: 0, width: 100)
        let values = BytesChart.cumulative(events, axis: axis, samples: 10)
        #expect(BytesChart.totals(events) == [0, 50, 100, 0, 25, 0])
        #expect(values[2][0] == 0 && values[2][1] == 100 && values[2][10] == 100)
        #expect(values[1][1] == 0 && values[1][2] == 50)
        #expect(values.map { $0.last! } == BytesChart.totals(events))
    }
}

/// Absurd numbers in an events file (the reader takes any finite number) draw, never trap.
@Suite("Report of absurd numbers")
struct AbsurdReportTests {
    @Test func hugeTimesBytesAndTTFFsRenderWithoutTrapping() throws {
        let events = [
            SessionEvent(time: 0, kind: .fetch(url: "u", bytes: .max, cacheBytes: 0, cacheHit: false, origin: .playback, card: "s0/0")),
            SessionEvent(time: 1, kind: .fetch(url: "u", bytes: .max, cacheBytes: 0, cacheHit: false, origin: .playback, card: "s0/0")),
            SessionEvent(time: -5, kind: .fetch(url: "u", bytes: -10, cacheBytes: -10, cacheHit: true, origin: .thumbnail, card: "s0/0")),
            SessionEvent(time: 2, kind: .playStart(card: "s0/0", widget: "s0", widgetType: .short, userIntent: false)),
            SessionEvent(time: 3, kind: .firstFrame(card: "s0/0", ttffMs: 1e300)),
            SessionEvent(time: 4, kind: .firstFrame(card: "s99999999999999999999999/0", ttffMs: -4)),
            SessionEvent(time: 1e300, kind: .stall(card: "s0/0", ms: 1e300)),
        ]
        let html = try HTMLReport(runs: [.init(title: "absurd", events: events), .init(title: "empty", events: [])]).render()
        #expect(html.contains("</html>"))
        #expect(Int64.max.saturatingAdding(1) == .max && Int64.min.saturatingAdding(-1) == .min)
        #expect(ReportText.fixed(1e300, 2) == "1e+300")
    }
}
