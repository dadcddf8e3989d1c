import ReelCore
import ReelFeed
import Testing

@Suite("Widget plan")
struct WidgetPlannerTests {
    func plan(_ catalog: FeedCatalog, _ config: ReelConfig) -> [WidgetData] {
        let planner = WidgetPlanner(catalog: catalog, config: config)
        var cursor = FeedCursor.first
        var widgets: [WidgetData] = []
        while let widget = planner.next(&cursor), widgets.count < 100_000 {
            widgets.append(widget)
        }
        return widgets
    }

    func videos(_ data: WidgetData) throws -> [Video] {
        switch ComponentRegistry.standard.resolve(data) {
        case .content(let content): return content.videos
        case .failure(let reason): throw ReelError(.invalidInput, reason)
        }
    }

    @Test("144 entries: 16 carousels of 6 and 48 shorts, every video once and in order, merch between")
    func catalog144() throws {
        let widgets = plan(try Fixtures.catalog144(), ReelConfig())
        let videoWidgets = widgets.filter { $0.route != "merch" }
        #expect(videoWidgets.filter { $0.route == "carousel" }.count == 16)
        #expect(videoWidgets.filter { $0.route == "short" }.count == 48)
        for data in videoWidgets where data.route == "carousel" {
            #expect(try videos(data).count == 6)
        }
        let order = try videoWidgets.flatMap { try videos($0) }.map(\.catalogIndex)
        #expect(order == Array(0..<144))

        let merch = widgets.indices.filter { widgets[$0].route == "merch" }
        #expect(!merch.isEmpty)
        #expect(merch.first! > 0 && merch.last! < widgets.count - 1, "merch sits between video widgets")
        for (a, b) in zip(merch, merch.dropFirst()) {
            #expect(b - a - 1 >= 3, "at least widgets.merch.minGap video widgets between merch")
        }
        #expect(merch.first! >= 3)
    }

    @Test("every 4th video widget is a carousel whatever merch is inserted")
    func rhythm() throws {
        for seed in [1, 2, 3, 99] {
            let config = try Fixtures.config(["widgets.seed=\(seed)", "widgets.merch.rate=0.6", "widgets.merch.minGap=1"])
            let videoWidgets = plan(try Fixtures.catalog(count: 90), config).filter { $0.route != "merch" }
            for (position, data) in videoWidgets.enumerated() {
                #expect(data.route == ((position + 1) % 4 == 0 ? "carousel" : "short"), "seed \(seed) position \(position + 1)")
            }
        }
    }

    @Test("rhythm and carousel size are configurable")
    func configurableRhythm() throws {
        let config = try Fixtures.config(["widgets.carouselEvery=2", "widgets.carouselSize=3", "widgets.merch.rate=0"])
        let routes = plan(try Fixtures.catalog(count: 9), config).map(\.route)
        #expect(routes == ["short", "carousel", "short", "carousel", "short"])
    }

    @Test("merch placement is deterministic for a seed and differs between seeds")
    func seeded() throws {
        let catalog = try Fixtures.catalog(count: 144)
        let a = plan(catalog, try Fixtures.config(["widgets.seed=7"]))
        let b = plan(catalog, try Fixtures.config(["widgets.seed=7"]))
        let c = plan(catalog, try Fixtures.config(["widgets.seed=8"]))
        #expect(a == b)
        #expect(a.map(\.id) != c.map(\.id))
        #expect(plan(catalog, try Fixtures.config(["widgets.merch.rate=0"])).allSatisfy { $0.route != "merch" })
    }

    @Test("merch has a templated image URL, a title and a footer; shorts a title and a comment")
    func dummyContent() throws {
        let widgets = plan(try Fixtures.catalog(count: 60), try Fixtures.config(["widgets.merch.rate=1", "widgets.seed=5"]))
        let merch = try #require(widgets.first { $0.route == "merch" })
        guard case .content(.merch(let content)) = ComponentRegistry.standard.resolve(merch) else {
            Issue.record("merch did not resolve")
            return
        }
        #expect(merch.id == "m0")
        #expect(content.imageURL == "https://picsum.photos/seed/5-0/\(content.imageWidth)/\(content.imageHeight)")
        #expect(content.imageWidth == 600)
        #expect([600, 750, 800].contains(content.imageHeight))
        #expect(!content.title.isEmpty && !content.footer.isEmpty)
        guard case .content(.short(let short)) = ComponentRegistry.standard.resolve(widgets[0]) else {
            Issue.record("short did not resolve")
            return
        }
        #expect(!short.title.isEmpty && short.comment.hasPrefix("@"))
    }

    @Test("at the end, a carousel takes what is left if at least carouselMinSize; fewer become shorts")
    func leftovers() throws {
        let config = try Fixtures.config(["widgets.merch.rate=0"])
        // 5 videos: s s s, then a carousel of the 2 left.
        let five = plan(try Fixtures.catalog(count: 5), config)
        #expect(five.map(\.route) == ["short", "short", "short", "carousel"])
        #expect(try videos(five[3]).count == 2)
        // 4 videos: s s s, then 1 left for the carousel position: a short.
        #expect(plan(try Fixtures.catalog(count: 4), config).map(\.route) == ["short", "short", "short", "short"])
        // 13 videos: sss c6, sss, then 1 left: short.
        let thirteen = plan(try Fixtures.catalog(count: 13), config)
        #expect(thirteen.map(\.route) == ["short", "short", "short", "carousel", "short", "short", "short", "short"])
        #expect(try thirteen.flatMap { try videos($0) }.map(\.catalogIndex) == Array(0..<13))
    }

    @Test("ids derive from catalog indexes; looping adds the lap")
    func ids() throws {
        let config = try Fixtures.config(["widgets.merch.rate=0", "pagination.loopCatalog=true", "pagination.maxWidgets=12"])
        let widgets = plan(try Fixtures.catalog(count: 9), config)
        #expect(widgets.map(\.id) == ["s0", "s1", "s2", "c3", "s0@1", "s1@1", "s2@1", "c3@1", "s0@2", "s1@2", "s2@2", "c3@2"])
        guard case .content(let content) = ComponentRegistry.standard.resolve(widgets[7]) else {
            Issue.record("carousel did not resolve")
            return
        }
        #expect(content.videos.map(\.id) == ["v3@1", "v4@1", "v5@1", "v6@1", "v7@1", "v8@1"])
        #expect(content.cards(widgetID: "c3@1").map(\.id) == ["c3@1/0", "c3@1/1", "c3@1/2", "c3@1/3", "c3@1/4", "c3@1/5"])
    }

    @Test("ids use file positions, so skipped entries leave gaps")
    func idsWithSkips() throws {
        let json = """
        [{"video_source": {"url": "https://a/0"}, "thumbail": {"aspectRatio": "16:9"}},
         {"video_source": {}, "thumbail": {"aspectRatio": "16:9"}},
         {"video_source": {"url": "https://a/2"}, "thumbail": {"aspectRatio": "16:9"}}]
        """
        let widgets = plan(try FeedCatalog.parse(json), ReelConfig())
        #expect(widgets.map(\.id) == ["s0", "s2"])
    }
}
