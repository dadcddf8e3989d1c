import ReelCore
import ReelFeed
import Testing

/// A feed of square shorts 400 points high with no titles or gaps on a 400x800 screen: short i
/// spans y = 400i ..< 400(i+1) and two fill the viewport.
struct Grid {
    var controller: FeedController

    init(count: Int = 40, _ assignments: [String] = []) throws {
        let config = try Fixtures.config([
            "widgets.carouselEvery=10000", "widgets.merch.rate=0", "layout.short.titleHeight=0",
            "layout.short.commentHeight=0", "layout.widgetSpacing=0",
        ] + assignments)
        let api = FeedAPI(catalog: try Fixtures.catalog(count: count, ratios: ["1:1"]), config: config)
        controller = Fixtures.loadedController(api, config: config, screen: Size(width: 400, height: 800))
    }

    mutating func scroll(_ y: Double, at time: Double, x: [String: Double] = [:]) -> [VisibilityTransition] {
        var sample = ScrollSample(time: time, y: y)
        for key in x.keys.sorted() { sample.x[key] = x[key] }
        return Fixtures.transitions(controller.scroll(sample))
    }

    mutating func tick(_ time: Double) -> [VisibilityTransition] {
        Fixtures.transitions(controller.tick(at: time))
    }

    func state(_ widget: Int, _ slot: Int = 0) -> VisibilityState {
        controller.state(of: CardRef(widget: widget, slot: slot))
    }

    func fraction(_ widget: Int, _ slot: Int = 0) -> Double {
        controller.visibility.fraction(of: CardRef(widget: widget, slot: slot), layout: controller.layout)
    }
}

@Suite("Visibility tracker")
struct VisibilityTrackerTests {
    @Test("visible fractions from the vertical offset")
    func fractions() throws {
        var grid = try Grid()
        _ = grid.scroll(0, at: 0)
        #expect(grid.fraction(0) == 1 && grid.fraction(1) == 1 && grid.fraction(2) == 0)
        _ = grid.scroll(100, at: 1)
        #expect(grid.fraction(0) == 0.75 && grid.fraction(2) == 0.25)
        #expect(grid.state(0) == .ready && grid.state(2) == .ready)
        _ = grid.scroll(396, at: 2)
        #expect(grid.fraction(0) == 0.01)
        #expect(grid.state(0) == .paused)
        _ = grid.scroll(400, at: 3)
        #expect(grid.state(0) == .unmounted)
    }

    @Test("transitions name the card, widget and type with the fraction")
    func transitionFields() throws {
        var grid = try Grid()
        let events = grid.scroll(800, at: 0.5)
        let entering = try #require(events.first { $0.cardID == "s2/0" })
        #expect(entering.widgetID == "s2" && entering.widgetType == .short && entering.card == CardRef(widget: 2, slot: 0))
        #expect(entering.from == .prefetch && entering.to == .ready && entering.fraction == 1 && entering.time == 0.5)
        #expect(events.contains { $0.cardID == "s0/0" && $0.from == .ready && $0.to == .unmounted })
        #expect(events.map(\.card) == events.map(\.card).sorted(), "in feed order")
    }

    @Test("prefetch range in screens ahead in the scroll direction")
    func prefetchScreens() throws {
        var grid = try Grid()
        _ = grid.scroll(0, at: 0)
        // Viewport 0..800, one screen ahead 800..1600: shorts 2 and 3.
        #expect(grid.state(2) == .prefetch && grid.state(3) == .prefetch && grid.state(4) == .idle)
        _ = grid.scroll(4000, at: 10)
        #expect(grid.state(12) == .prefetch && grid.state(13) == .prefetch)
        _ = grid.scroll(3000, at: 20)
        // Scrolling up, ahead is above: viewport 3000..3800, one screen ahead 2200..3000 holds 5 and 6.
        #expect(grid.state(5) == .prefetch && grid.state(6) == .prefetch)
        #expect(grid.state(4) == .idle)
        // Behind, 12 is within the keep range (1.5 screens) and stays; 13 is beyond it.
        #expect(grid.state(12) == .prefetch && grid.state(13) == .idle)
    }

    @Test("prefetch range in cards ahead")
    func prefetchCards() throws {
        var grid = try Grid(["visibility.prefetch.unit=cards", "visibility.prefetch.cards=1"])
        _ = grid.scroll(0, at: 0)
        #expect(grid.state(2) == .prefetch && grid.state(3) == .idle)
        var wider = try Grid(["visibility.prefetch.unit=cards", "visibility.prefetch.cards=5"])
        _ = wider.scroll(0, at: 0)
        #expect(wider.state(6) == .prefetch && wider.state(7) == .idle)
    }

    @Test("cards already passed are not prefetched; far cards go back to idle")
    func passedCards() throws {
        var grid = try Grid()
        _ = grid.scroll(0, at: 0)
        _ = grid.scroll(400, at: 1)
        _ = grid.scroll(800, at: 2)
        #expect(grid.state(0) == .unmounted, "kept within 1.5 screens behind")
        _ = grid.scroll(2000, at: 3)
        #expect(grid.state(0) == .idle)
        #expect(grid.state(1) == .idle)
        #expect(grid.controller.visibility.liveCards(layout: grid.controller.layout).allSatisfy { $0.widget >= 2 })
    }

    @Test("only cards near the viewport are tracked, whatever the feed length")
    func boundedWork() throws {
        var grid = try Grid(count: 3000)
        var time = 0.0
        for y in stride(from: 0.0, through: 1_000_000, by: 37_000) {
            time += 1
            _ = grid.scroll(y, at: time)
            #expect(grid.controller.visibility.liveCards(layout: grid.controller.layout).count <= 12)
        }
    }

    @Test("a slow scroll emits every transition at once")
    func slowScroll() throws {
        var grid = try Grid()
        _ = grid.scroll(0, at: 0)
        let events = grid.scroll(100, at: 1)   // 100 points per second
        #expect(events.contains { $0.cardID == "s2/0" && $0.to == .ready })
        #expect(grid.controller.nextDeadline == nil)
    }

    @Test("a fast scroll holds mounts back, pauses at once, and emits the net result when it settles")
    func coalescing() throws {
        var grid = try Grid()
        _ = grid.scroll(0, at: 0)
        #expect(grid.state(0) == .ready && grid.state(1) == .ready)
        // 1200 points in 0.1 s: 12,000 points per second, well above 2500.
        let fast = grid.scroll(1200, at: 0.1)
        #expect(Set(fast.map(\.to)).isSubset(of: [.paused, .softRelease]), "only pauses pass: \(fast.map { "\($0.cardID) \($0.to)" })")
        #expect(fast.contains { $0.cardID == "s0/0" && $0.from == .ready && $0.to == .paused })
        #expect(grid.state(3) == .prefetch, "mount held back")
        let deadline = try #require(grid.controller.nextDeadline)
        #expect(abs(deadline - 0.2) < 1e-9, "settles 100 ms after the last sample")
        let early = grid.tick(0.15)
        #expect(early.isEmpty, "nothing before the deadline")
        let settled = grid.tick(deadline)
        #expect(settled.contains { $0.cardID == "s3/0" && $0.from == .prefetch && $0.to == .ready })
        #expect(settled.contains { $0.cardID == "s0/0" && $0.from == .paused && $0.to == .unmounted })
        #expect(grid.controller.nextDeadline == nil)
    }

    @Test("a card that flies past during a fling emits nothing")
    func flyBy() throws {
        var grid = try Grid()
        var all: [VisibilityTransition] = []
        all += grid.scroll(0, at: 0)
        for step in 1...6 {
            // 600 points every 40 ms: 15,000 points per second, 0.24 s in all (under maxDelayMs).
            all += grid.scroll(Double(step) * 600, at: Double(step) * 0.04)
        }
        let deadline = try #require(grid.controller.nextDeadline)
        #expect(abs(deadline - 0.34) < 1e-9)
        all += grid.tick(deadline)
        for widget in 4...8 {
            #expect(!all.contains { $0.card.widget == widget }, "s\(widget) flew past")
        }
        #expect(all.contains { $0.cardID == "s3/0" && $0.from == .prefetch && $0.to == .idle }, "net result for a card left behind")
        #expect(grid.state(9) == .ready && grid.state(10) == .ready)
    }

    @Test("during a long fling, held transitions are released after the maximum delay")
    func maxDelay() throws {
        var grid = try Grid(count: 400)
        _ = grid.scroll(0, at: 0)
        var released: [VisibilityTransition] = []
        var time = 0.0
        var y = 0.0
        for _ in 0..<40 {
            time += 0.016
            y += 80   // 5000 points per second
            if let deadline = grid.controller.nextDeadline, deadline <= time {
                released += grid.tick(deadline)
            }
            released += grid.scroll(y, at: time).filter { $0.to != .paused && $0.to != .softRelease }
        }
        let first = try #require(released.first)
        #expect(first.time >= 0.016 + 0.3 - 1e-9, "not before maxDelayMs")
        #expect(first.time <= 0.016 + 0.3 + 0.016 + 1e-9)
    }

    @Test("a release by the maximum delay mounts cards but makes none ready until the scroll slows")
    func maxDelayReleaseMountsButHoldsReady() throws {
        var grid = try Grid(count: 400)
        _ = grid.scroll(0, at: 0)
        var events: [VisibilityTransition] = []
        var time = 0.0
        var y = 0.0
        for _ in 0..<60 {
            time += 0.016
            y += 80   // 5000 points per second: one second of fling, three maximum delays
            if let deadline = grid.controller.nextDeadline, deadline <= time {
                events += grid.tick(deadline)
            }
            events += grid.scroll(y, at: time)
        }
        let duringFling = events.filter { $0.to != .paused && $0.to != .softRelease && $0.from != .ready }
        #expect(duringFling.contains { $0.to == .mounted }, "the maximum delay still mounts the cards in view")
        #expect(!duringFling.contains { $0.to == .ready || $0.to == .active }, "nothing becomes ready mid-fling")
        // The scroll stops: once settled, the cards it rests on become ready.
        let deadline = try #require(grid.controller.nextDeadline)
        let settled = grid.tick(deadline)
        #expect(settled.contains { $0.to == .ready }, "\(settled)")
        #expect(grid.state(Int(y / 400)) == .ready)
    }

    @Test("coalescing velocity and delays are configurable")
    func configurableCoalescing() throws {
        var grid = try Grid(["visibility.coalesce.velocity=100000"])
        _ = grid.scroll(0, at: 0)
        let events = grid.scroll(1200, at: 0.1)
        #expect(events.contains { $0.to == .ready }, "12,000 pt/s is slow under a 100,000 limit")
    }

    @Test("the arbiter's grant makes a ready card active; leaving keeps it through soft release and drops it at pause")
    func grants() throws {
        var grid = try Grid()
        _ = grid.scroll(0, at: 0)
        let card = CardRef(widget: 0, slot: 0)
        let granted = Fixtures.transitions(grid.controller.setPlaying(card, granted: true, at: 0.5))
        #expect(granted.map(\.to) == [.active])
        #expect(grid.state(0) == .active)
        let twice = grid.controller.setPlaying(card, granted: true, at: 0.6)
        #expect(twice.events.isEmpty, "already active")

        _ = grid.scroll(50, at: 1)
        #expect(grid.state(0) == .active)
        let leaving = grid.scroll(220, at: 2)
        #expect(leaving.contains { $0.cardID == "s0/0" && $0.from == .active && $0.to == .softRelease })
        let back = grid.scroll(150, at: 3)
        #expect(back.contains { $0.cardID == "s0/0" && $0.from == .softRelease && $0.to == .active }, "still granted")
        _ = grid.scroll(350, at: 4)
        #expect(grid.state(0) == .paused)
        _ = grid.scroll(0, at: 5)
        #expect(grid.state(0) == .ready, "the grant was dropped at pause")

        let notReady = grid.controller.setPlaying(CardRef(widget: 3, slot: 0), granted: true, at: 6)
        #expect(notReady.events.isEmpty, "not ready")
        _ = grid.controller.setPlaying(card, granted: true, at: 7)
        let revoked = Fixtures.transitions(grid.controller.setPlaying(card, granted: false, at: 8))
        #expect(revoked.map(\.to) == [.ready])
    }

    @Test("a new page re-evaluates visibility at the current offset")
    func pageArrival() throws {
        let config = try Fixtures.config(["widgets.merch.rate=0", "pagination.firstPageSize=1", "pagination.pageSize=1"])
        let api = FeedAPI(catalog: try Fixtures.catalog(count: 5, ratios: ["1:1"]), config: config)
        var controller = FeedController(config: config, screen: Size(width: 390, height: 844))
        let start = controller.start(at: 0)
        let cursor = try #require(start.pageRequest)
        _ = controller.scroll(ScrollSample(time: 0.05, y: 0))
        let loaded = controller.receive(api.page(cursor), at: 0.15)
        #expect(Fixtures.transitions(loaded).contains { $0.cardID == "s0/0" && $0.to == .ready })
        #expect(loaded.events.contains { $0.kind == .pageLoaded(page: 0, widgets: [0]) })
        #expect(loaded.pageRequest?.page == 1, "content is short: the next page is requested at once")
    }
}

@Suite("Carousel visibility")
struct CarouselVisibilityTests {
    /// One carousel of 6 cards at the top of a 400x800 screen: cards 153.6 wide, 8 apart.
    func carouselFeed(_ assignments: [String] = []) throws -> Grid {
        try Grid(count: 6, ["widgets.carouselEvery=1", "layout.carousel.titleHeight=0"] + assignments)
    }

    @Test("cards' fractions follow the horizontal offset, clipped to the carousel")
    func horizontal() throws {
        var grid = try carouselFeed()
        #expect(grid.controller.layout.types == [.carousel])
        _ = grid.scroll(0, at: 0)
        let width = grid.controller.layout.metrics.carouselCardWidth
        #expect(abs(width - (400 - 16) / 2.5) < 1e-9)
        #expect(grid.fraction(0, 0) == 1 && grid.fraction(0, 1) == 1)
        #expect(abs(grid.fraction(0, 2) - 0.5) < 1e-9, "half a card shows")
        #expect(grid.state(0, 2) == .ready)
        #expect(grid.state(0, 3) == .prefetch, "one card past the edge is ahead")
        #expect(grid.state(0, 4) == .idle)

        _ = grid.scroll(0, at: 1, x: ["c0": width + 8])
        #expect(grid.fraction(0, 0) == 0)
        #expect(grid.state(0, 0) == .unmounted)
        #expect(grid.fraction(0, 3) > 0.49 && grid.fraction(0, 3) < 0.51)
        #expect(grid.state(0, 4) == .prefetch)

        _ = grid.scroll(0, at: 2, x: ["c0": 1e9])
        #expect(grid.controller.visibility.carouselOffset(widget: 0) == grid.controller.layout.maxCarouselOffset(widget: 0), "clamped")
        #expect(grid.fraction(0, 5) == 1)
    }

    @Test("an unknown carousel id in a sample is warned about once")
    func unknownCarousel() throws {
        var grid = try Grid()
        let first = grid.controller.scroll(ScrollSample(time: 0, y: 0, x: ["c99": 10], line: 3))
        #expect(first.warnings.count == 1 && first.warnings[0].contains("c99"))
        let second = grid.controller.scroll(ScrollSample(time: 1, y: 0, x: ["c99": 10]))
        #expect(second.warnings.isEmpty)
        let tap = grid.controller.scroll(ScrollSample(time: 2, y: 0, tap: "s0/0"))
        #expect(tap.events.contains { $0.kind == .tap(cardID: "s0/0", card: CardRef(widget: 0, slot: 0)) })
    }
}
