import ReelCore
import ReelFeed
import Testing

@Suite("Layout")
struct FeedLayoutTests {
    /// Items for contents, through a model so ids and cards are set.
    func makeItems(_ contents: [WidgetContent?]) -> [FeedItem] {
        var model = FeedModel()
        let widgets: [WidgetData] = contents.enumerated().map { index, content in
            switch content {
            case .short(let short)?: short.pageData(id: "s\(index)")
            case .carousel(let carousel)?: carousel.pageData(id: "c\(index)")
            case .merch(let merch)?: merch.pageData(id: "m\(index)")
            case nil: WidgetData(id: "x\(index)", route: "unknown", fields: [:])
            }
        }
        model.apply(FeedPage(index: 0, cursor: .first, widgets: widgets, next: nil))
        return model.items
    }

    func video(_ ratio: String) -> Video {
        Video(catalogIndex: 0, lap: 0, url: "https://a", aspectRatio: AspectRatio(ratio)!, thumbnailTemplate: "")
    }

    @Test("screen classes follow the breakpoints", arguments: [
        (390.0, ScreenClass.small), (599.0, .small), (600.0, .medium), (1023.0, .medium), (1024.0, .large), (1920.0, .large),
    ])
    func screenClasses(width: Double, expected: ScreenClass) {
        #expect(ScreenClass(width: width, breakpoints: ReelConfig().layout.breakpoints) == expected)
    }

    @Test("breakpoints are configurable")
    func configurableBreakpoints() throws {
        let config = try Fixtures.config(["layout.breakpoints.medium=400"])
        #expect(LayoutMetrics(config: config, screen: Size(width: 420, height: 800)).screenClass == .medium)
    }

    @Test("feed width is min(screen, maxContentWidth) and centred")
    func feedWidth() throws {
        let narrow = LayoutMetrics(config: ReelConfig(), screen: Size(width: 390, height: 844))
        #expect(narrow.feedWidth == 390 && narrow.feedX == 0)
        let wide = LayoutMetrics(config: ReelConfig(), screen: Size(width: 1280, height: 800))
        #expect(wide.feedWidth == 768 && wide.feedX == 256)
        let configured = LayoutMetrics(config: try Fixtures.config(["feed.maxContentWidth=600"]), screen: Size(width: 1000, height: 800))
        #expect(configured.feedWidth == 600 && configured.feedX == 200)
    }

    @Test("a short's video box is aspect-fit into the feed width with room for title and comment")
    func shorts() {
        var layout = FeedLayout(config: ReelConfig(), screen: Size(width: 390, height: 844))
        layout.append(makeItems([
            .short(ShortContent(video: video("9:16"), title: "", comment: "")),   // landscape
            .short(ShortContent(video: video("16:9"), title: "", comment: "")),   // portrait, fits
            .short(ShortContent(video: video("30:9"), title: "", comment: "")),   // very tall: capped
        ]))
        let landscape = layout.cardRects[0]
        #expect(landscape.width == 390)
        #expect(abs(landscape.height - 390 * 9 / 16) < 1e-9)
        #expect(layout.frames[0].height == landscape.height + 24 + 20)

        let portrait = layout.cardRects[1]
        #expect(abs(portrait.height - 390 * 16 / 9) < 1e-9)
        #expect(portrait.y == layout.frames[1].y)
        #expect(layout.frames[1].y == layout.frames[0].maxY + 12)

        let tall = layout.cardRects[2]
        #expect(tall.height == 844 - 24 - 20, "capped so the short fits in the viewport")
        #expect(abs(tall.width - tall.height * 9 / 30) < 1e-9)
        #expect(abs(tall.midX - 195) < 1e-9, "centred")
        #expect(layout.frames[2].height == 844)
    }

    @Test("a carousel spans the feed width with 2.5 cards on small screens and 3.5 on larger ones")
    func carousels() throws {
        let content = WidgetContent.carousel(CarouselContent(title: "", videos: Array(repeating: video("16:9"), count: 6)))
        for (width, visible) in [(390.0, 2.5), (700.0, 3.5), (1200.0, 3.5)] {
            var layout = FeedLayout(config: ReelConfig(), screen: Size(width: width, height: 900))
            layout.append(makeItems([content]))
            let feedWidth = min(width, 768)
            let card = layout.cardRects[0]
            #expect(abs(card.width * visible + 8 * visible.rounded(.down) - feedWidth) < 1e-9)
            #expect(abs(card.height - card.width * 16 / 9) < 1e-9)
            #expect(layout.frames[0].width == feedWidth)
            #expect(layout.frames[0].height == 24 + card.height)
            #expect(layout.cardRects[1].minX - card.maxX == 8)
            #expect(abs(layout.maxCarouselOffset(widget: 0) - (6 * card.width + 5 * 8 - feedWidth)) < 1e-9)
        }
        var configured = FeedLayout(config: try Fixtures.config(["layout.carousel.visibleCards.small=4", "layout.carousel.cardSpacing=0"]), screen: Size(width: 400, height: 900))
        configured.append(makeItems([content]))
        #expect(configured.cardRects[0].width == 100)
    }

    @Test("a merch card's height follows its image ratio")
    func merch() {
        var layout = FeedLayout(config: ReelConfig(), screen: Size(width: 390, height: 844))
        layout.append(makeItems([.merch(MerchContent(imageURL: "", imageWidth: 600, imageHeight: 750, title: "", footer: ""))]))
        #expect(layout.cardRects[0].height == 390 * 1.25)
        let expected: Double = 390 * 1.25 + 24 + 20
        #expect(layout.frames[0].height == expected)
    }

    @Test("incremental layout equals layout in one go, and relayout redoes the tail")
    func incremental() throws {
        let config = ReelConfig()
        let api = FeedAPI(catalog: try Fixtures.catalog144(), config: config)
        var model = FeedModel()
        var incremental = FeedLayout(config: config, screen: Size(width: 390, height: 844))
        for page in api.pages() {
            let change = model.apply(page)
            incremental.append(model.items[change.appended])
        }
        var whole = FeedLayout(config: config, screen: Size(width: 390, height: 844))
        whole.append(model.items)
        #expect(incremental.frames == whole.frames)
        #expect(incremental.cardRects == whole.cardRects)
        #expect(incremental.cardStart == whole.cardStart)

        var redone = whole
        redone.relayout(from: 30, items: model.items)
        #expect(redone.frames == whole.frames)
        #expect(redone.cardWidget == whole.cardWidget)
    }

    @Test("the band search matches a scan of every frame")
    func bandSearch() throws {
        let config = ReelConfig()
        let build = FeedBuild(api: FeedAPI(catalog: try Fixtures.catalog144(), config: config), config: config)
        let layout = build.layout
        for (lower, upper) in [(0.0, 844.0), (1000.0, 1001.0), (5000.0, 8000.0), (-50.0, 10.0), (36_000.0, 99_999.0), (1e6, 1e6 + 10)] {
            let expected = layout.frames.indices.filter { layout.frames[$0].maxY > lower && layout.frames[$0].minY < upper }
            let found = layout.widgets(from: lower, to: upper)
            #expect(Array(found) == expected, "band \(lower)..<\(upper)")
        }
    }
}

extension Rect {
    var midX: Double { x + width / 2 }
}
