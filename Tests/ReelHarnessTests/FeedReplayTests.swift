import ReelCore
import ReelFeed
import ReelHarness
import Testing

@Suite("Replaying a scroll trace")
struct FeedReplayTests {
    @Test("pages arrive after the simulated latency and events are in time order")
    func replay() throws {
        let config = try Fixtures.config(["pagination.latencyMs=200"])
        let api = FeedAPI(catalog: try Fixtures.catalog144(), config: config)
        let trace = try ScrollTrace.parse("""
        {"t": 0.1, "y": 0}
        {"t": 1.0, "y": 0, "tap": "s0/0"}
        {"t": 2.0, "y": 300}
        {"t": 3.0, "y": 300, "x": {"c3": 120}}
        """)
        let result = FeedReplay.run(trace: trace, api: api, config: config)
        let events = result.events
        #expect(events.first == FeedEvent(time: 0, kind: .pageRequested(page: 0)))
        #expect(events.contains { $0.time == 0.2 && $0.kind == .pageLoaded(page: 0, widgets: Array(0..<10)) })
        #expect(!events.contains { if case .transition = $0.kind { $0.time < 0.2 } else { false } }, "nothing visible before the first page")
        #expect(events.map(\.time) == events.map(\.time).sorted())
        #expect(events.contains { $0.kind == .tap(cardID: "s0/0", card: CardRef(widget: 0, slot: 0)) })
        #expect(result.warnings.isEmpty)
        #expect(result.controller.visibility.carouselOffset(widget: 3) == 120)
        // The replay is deterministic.
        #expect(FeedReplay.run(trace: trace, api: api, config: config).events == events)
    }

    @Test("a fling's held transitions are released after the trace ends")
    func drainsAtEnd() throws {
        let config = ReelConfig()
        let api = FeedAPI(catalog: try Fixtures.catalog144(), config: config)
        let trace = try ScrollTrace.parse("""
        {"t": 0.3, "y": 0}
        {"t": 0.35, "y": 1000}
        """)
        let result = FeedReplay.run(trace: trace, api: api, config: config)
        #expect(result.controller.nextDeadline == nil)
        #expect(result.events.contains { if case .transition(let t) = $0.kind { abs($0.time - 0.45) < 1e-9 && t.to == .ready } else { false } })
    }

    @Test("an empty catalog replays without widgets or crashes")
    func emptyCatalog() throws {
        let config = ReelConfig()
        let api = FeedAPI(catalog: try FeedCatalog.parse("[]"), config: config)
        let trace = try ScrollTrace.parse("{\"t\": 0, \"y\": 0}\n{\"t\": 1, \"y\": 500, \"tap\": \"s0/0\"}")
        let result = FeedReplay.run(trace: trace, api: api, config: config)
        #expect(!result.events.contains { if case .transition = $0.kind { true } else { false } })
        #expect(result.warnings.count == 1)
        #expect(result.controller.pagination.reachedEnd)
    }

    @Test("events serialise as one JSON object each")
    func eventJSON() throws {
        let transition = VisibilityTransition(time: 1.5, card: CardRef(widget: 0, slot: 0), cardID: "s0/0", widgetID: "s0", widgetType: .short, from: .idle, to: .mounted, fraction: 0.123456)
        #expect(JSONWriter.compact(FeedEvent(time: 1.5, kind: .transition(transition)).json)
            == #"{"t":1.5,"event":"transition","card":"s0/0","widget":"s0","type":"short","from":"idle","to":"mounted","fraction":0.1235}"#)
        #expect(JSONWriter.compact(FeedEvent(time: 2, kind: .tap(cardID: "c3/1", card: nil)).json) == #"{"t":2,"event":"tap","card":"c3/1","loaded":false}"#)
    }
}
