import ReelCore
import ReelFeed
import Testing

@Suite("Paginated mock API")
struct FeedAPITests {
    @Test("first page and later pages have their own sizes; the last page ends the feed")
    func pageSizes() throws {
        let config = try Fixtures.config(["pagination.firstPageSize=5", "pagination.pageSize=7", "widgets.merch.rate=0"])
        let api = FeedAPI(catalog: try Fixtures.catalog(count: 36), config: config)
        let pages = api.pages()
        // 36 videos = 4 cycles of s s s c6 = 16 widgets: 5 + 7 + 4.
        #expect(pages.map(\.widgets.count) == [5, 7, 4])
        #expect(pages.map(\.index) == [0, 1, 2])
        #expect(pages[0].next != nil && pages[1].next != nil)
        #expect(pages[2].next == nil)
        #expect(pages[1].cursor.widget == 5)
    }

    @Test("a page that ends exactly at the end of the feed says so")
    func exactEnd() throws {
        let config = try Fixtures.config(["pagination.firstPageSize=4", "pagination.pageSize=4", "widgets.merch.rate=0"])
        let pages = FeedAPI(catalog: try Fixtures.catalog(count: 18), config: config).pages()
        #expect(pages.map(\.widgets.count) == [4, 4])
        #expect(pages.last?.next == nil)
    }

    @Test("pages are a pure function of their cursor")
    func deterministic() throws {
        let api = FeedAPI(catalog: try Fixtures.catalog144(), config: ReelConfig())
        let pages = api.pages()
        #expect(api.page(pages[2].cursor) == pages[2])
        let all = pages.flatMap(\.widgets)
        let planner = WidgetPlanner(catalog: try Fixtures.catalog144(), config: ReelConfig())
        var cursor = FeedCursor.first
        var planned: [WidgetData] = []
        while let widget = planner.next(&cursor) { planned.append(widget) }
        #expect(all == planned)
    }

    @Test("a looping catalog serves a long feed up to maxWidgets")
    func looping() throws {
        let config = try Fixtures.config(["pagination.loopCatalog=true", "pagination.maxWidgets=10000", "pagination.pageSize=500"])
        let api = FeedAPI(catalog: try Fixtures.catalog(count: 144), config: config)
        #expect(!api.isEndless)
        let pages = api.pages()
        #expect(pages.flatMap(\.widgets).count == 10_000)
        #expect(Set(pages.flatMap(\.widgets).map(\.id)).count == 10_000, "ids stay unique across laps")

        let endless = FeedAPI(catalog: try Fixtures.catalog(count: 3), config: try Fixtures.config(["pagination.loopCatalog=true"]))
        #expect(endless.isEndless)
        #expect(endless.pages(limit: 3).count == 3)
        #expect(endless.pages(limit: 3).last?.next != nil)
    }

    @Test("the simulated latency is waited on the injected clock")
    func latency() async throws {
        let config = try Fixtures.config(["pagination.latencyMs=250"])
        let api = FeedAPI(catalog: try Fixtures.catalog(count: 20), config: config)
        let clock = ManualClock()
        let task = Task { try await api.page(.first, clock: clock) }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .milliseconds(249))
        #expect(clock.sleeperCount == 1, "not served before the latency has passed")
        clock.advance(by: .milliseconds(1))
        let page = try await task.value
        #expect(page.widgets.count == 10)
    }

    @Test("a cancelled request stops waiting")
    func cancelled() async throws {
        let api = FeedAPI(catalog: try Fixtures.catalog(count: 20), config: ReelConfig())
        let clock = ManualClock()
        let task = Task { try await api.page(.first, clock: clock) }
        while clock.sleeperCount == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
