import ReelCore
import ReelFeed
import Testing

@Suite("View recycling")
struct ViewRecyclerTests {
    @Test("only the viewport plus a buffer is bound; holders are reused per type")
    func recycling() throws {
        var grid = try Grid(count: 40)
        _ = grid.scroll(0, at: 0)
        var recycler = grid.controller.recycler
        // Buffer 0.5 screens = 400: band -400..<1200 binds shorts 0, 1, 2.
        #expect(recycler.boundRange == 0..<3)
        #expect(recycler.stats(for: .short).created == 3)
        #expect(recycler.holder(ofWidget: 0)?.description == "short#0")

        let layout = grid.controller.layout
        recycler.update(offset: 400, layout: layout)
        #expect(recycler.boundRange == 0..<4)
        #expect(recycler.stats(for: .short).created == 4)

        let changes = recycler.update(offset: 4000, layout: layout)
        #expect(recycler.boundRange == 9..<13)
        let stats = recycler.stats(for: .short)
        #expect(stats.created == 4, "no new holders: all four reused")
        #expect(stats.reused == 4)
        #expect(stats.bound == 4 && stats.pooled == 0)
        #expect(changes.filter { if case .unbound = $0 { true } else { false } }.count == 4)
        #expect(changes.contains { if case .bound(9, _, true) = $0 { true } else { false } }, "widget 9 got a pooled holder")
    }

    @Test("the pool is bounded per type")
    func poolLimit() throws {
        var grid = try Grid(count: 40, ["recycling.maxPooledPerType=1"])
        _ = grid.scroll(0, at: 0)
        var recycler = grid.controller.recycler
        recycler.update(offset: 8000, layout: grid.controller.layout)
        let stats = recycler.stats(for: .short)
        // Three unbound, one pooled, two discarded; four bound at 7600..9200, one of them reused.
        #expect(stats.discarded == 2)
        #expect(stats.reused == 1)
        #expect(stats.created == 3 + 3)
    }

    @Test("holders are pooled per widget type")
    func perType() throws {
        let config = try Fixtures.config(["widgets.merch.rate=0"])
        var controller = Fixtures.loadedController(FeedAPI(catalog: try Fixtures.catalog144(), config: config), config: config)
        for step in 0..<400 {
            _ = controller.scroll(ScrollSample(time: Double(step), y: Double(step) * 80))
        }
        let shorts = controller.recycler.stats(for: .short)
        let carousels = controller.recycler.stats(for: .carousel)
        #expect(shorts.created + shorts.reused > 40)
        #expect(shorts.created <= 8, "a handful of holders serve every short")
        #expect(carousels.created <= 3)
        #expect(carousels.reused > 5)
        #expect(controller.recycler.stats(for: .merch).created == 0)
    }
}
