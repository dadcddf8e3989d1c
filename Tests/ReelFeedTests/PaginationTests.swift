import ReelCore
import ReelFeed
import Testing

@Suite("Pagination")
struct PaginationTests {
    @Test("the next page is requested within loadMoreScreens of the loaded end, one at a time")
    func requests() throws {
        var policy = PaginationPolicy(loadMoreScreens: 2)
        let first = policy.request(viewportBottom: 800, viewportHeight: 800, contentHeight: 0)
        #expect(first == .first)
        let again = policy.request(viewportBottom: 800, viewportHeight: 800, contentHeight: 0)
        #expect(again == nil, "one in flight")
        let next = try otherCursor()
        policy.received(FeedPage(index: 0, cursor: .first, widgets: [], next: next))
        let far = policy.request(viewportBottom: 800, viewportHeight: 800, contentHeight: 2401)
        #expect(far == nil, "more than two screens left")
        let near = policy.request(viewportBottom: 800, viewportHeight: 800, contentHeight: 2400)
        #expect(near == next)
    }

    @Test("the feed ends with the page that has no next cursor")
    func end() {
        var policy = PaginationPolicy(loadMoreScreens: 2)
        let cursor = policy.request(viewportBottom: 0, viewportHeight: 800, contentHeight: 0)!
        policy.received(FeedPage(index: 0, cursor: cursor, widgets: [], next: nil))
        #expect(policy.reachedEnd)
        let after = policy.request(viewportBottom: 0, viewportHeight: 800, contentHeight: 0)
        #expect(after == nil)
    }

    @Test("a failed request is asked for again; unrequested pages are ignored")
    func failures() throws {
        var policy = PaginationPolicy(loadMoreScreens: 1)
        let cursor = policy.request(viewportBottom: 0, viewportHeight: 800, contentHeight: 0)!
        policy.received(FeedPage(index: 5, cursor: try otherCursor(), widgets: [], next: nil))
        #expect(policy.inFlight == cursor)
        policy.failed(cursor)
        let retry = policy.request(viewportBottom: 0, viewportHeight: 800, contentHeight: 0)
        #expect(retry == cursor)
    }

    @Test("scrolling through the controller loads pages as the viewport nears the end")
    func controllerLoadsPages() throws {
        let config = try Fixtures.config(["pagination.firstPageSize=4", "pagination.pageSize=4", "pagination.loadMoreScreens=1"])
        let api = FeedAPI(catalog: try Fixtures.catalog144(), config: config)
        var controller = FeedController(config: config)
        var cursor = controller.start(at: 0).pageRequest
        var time = 0.0
        var y = 0.0
        var pagesLoaded = 0
        while y < 20_000 {
            if let request = cursor {
                let output = controller.receive(api.page(request), at: time)
                pagesLoaded += 1
                cursor = output.pageRequest
            }
            let height = controller.layout.viewport.height
            #expect(controller.layout.contentHeight - (y + height) > -1, "content always reaches the viewport")
            time += 0.5
            y += 300
            cursor = cursor ?? controller.scroll(ScrollSample(time: time, y: y)).pageRequest
        }
        #expect(pagesLoaded > 5)
        #expect(controller.model.pages.map(\.index) == Array(0..<pagesLoaded))
    }
}

/// A cursor other than `.first`, standing for a page nobody asked for.
func otherCursor() throws -> FeedCursor {
    let api = FeedAPI(catalog: try Fixtures.catalog(count: 30), config: ReelConfig())
    return try #require(api.page(.first).next)
}
