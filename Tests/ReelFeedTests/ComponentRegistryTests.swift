import ReelCore
import ReelFeed
import Testing

@Suite("Component registry and feed model")
struct ComponentRegistryTests {
    let video = Video(catalogIndex: 1, lap: 0, url: "https://a/1.m3u8", aspectRatio: AspectRatio(height: 16, width: 9)!, thumbnailTemplate: "")

    func page(_ index: Int, _ widgets: [WidgetData]) -> FeedPage {
        FeedPage(index: index, cursor: .first, widgets: widgets, next: nil)
    }

    @Test("every standard route resolves its own page data")
    func standardRoutes() {
        let registry = ComponentRegistry.standard
        #expect(registry.routeNames == ["carousel", "merch", "short"])
        let short = ShortContent(video: video, title: "t", comment: "c")
        #expect(registry.resolve(short.pageData(id: "s1")) == .content(.short(short)))
        let carousel = CarouselContent(title: "t", videos: [video, video])
        #expect(registry.resolve(carousel.pageData(id: "c1")) == .content(.carousel(carousel)))
        let merch = MerchContent(imageURL: "https://i", imageWidth: 600, imageHeight: 750, title: "t", footer: "f")
        #expect(registry.resolve(merch.pageData(id: "m0")) == .content(.merch(merch)))
    }

    @Test("an unknown route collapses to zero height and is reported once")
    func unknownRoute() throws {
        var model = FeedModel()
        let unknown = WidgetData(id: "x1", route: "banner", fields: [:])
        let first = model.apply(page(0, [ShortContent(video: video, title: "t", comment: "c").pageData(id: "s1"), unknown]))
        #expect(first.reports.count == 1)
        #expect(first.reports[0].widgetID == "x1")
        #expect(first.reports[0].reason.contains("'banner'"))
        #expect(model.items[1].isCollapsed)
        #expect(model.items[1].cards.isEmpty)
        let second = model.apply(page(1, [unknown]))
        #expect(second.reports.isEmpty, "reported once")
        #expect(model.reports.count == 1)

        var layout = FeedLayout(config: ReelConfig(), screen: Size(width: 390, height: 844))
        layout.append(model.items)
        #expect(layout.frames[1].height == 0)
        #expect(layout.types[1] == nil)
    }

    @Test("a mapper that fails or returns another type collapses the widget, never crashes")
    func failingMappers() {
        var registry = ComponentRegistry.standard
        registry.register(route: "broken", type: .short) { _ in throw ReelError(.invalidInput, "boom") }
        registry.register(route: "liar", type: .short) { _ in .merch(MerchContent(imageURL: "", imageWidth: 1, imageHeight: 1, title: "", footer: "")) }
        var model = FeedModel(registry: registry)
        let change = model.apply(page(0, [
            WidgetData(id: "a", route: "broken", fields: [:]),
            WidgetData(id: "b", route: "liar", fields: [:]),
            WidgetData(id: "c", route: "short", fields: ["title": .string("no video")]),
            WidgetData(id: "d", route: "carousel", fields: ["title": .string("t"), "videos": .array([])]),
        ]))
        #expect(model.items.filter { !$0.isCollapsed }.isEmpty)
        #expect(change.reports.map(\.widgetID) == ["a", "b", "c", "d"])
        #expect(change.reports[0].reason.contains("boom"))
        #expect(change.reports[1].reason.contains("expected short"))
        #expect(change.reports[2].reason.contains("video"))
    }

    @Test("new data with the same route updates in place; another route recreates")
    func updates() {
        var model = FeedModel()
        model.apply(page(0, [ShortContent(video: video, title: "one", comment: "c").pageData(id: "s1")]))
        let instance = model.items[0].instance
        let change = model.update(ShortContent(video: video, title: "two", comment: "c").pageData(id: "s1"), page: 3)
        #expect(change.updated == [0])
        #expect(change.appended.isEmpty)
        #expect(model.count == 1)
        #expect(model.items[0].instance == instance)
        #expect(model.items[0].revision == 1)
        #expect(model.items[0].page == 3)
        guard case .short(let short)? = model.items[0].content else {
            Issue.record("not a short")
            return
        }
        #expect(short.title == "two")

        let recreated = model.update(CarouselContent(title: "t", videos: [video, video]).pageData(id: "s1"), page: 4)
        #expect(recreated.recreated == [0])
        #expect(model.items[0].instance != instance)
        #expect(model.items[0].type == .carousel)
        #expect(recreated.relayoutFrom == 0)
    }

    @Test("an update in place keeps card states and lays out again when the size changes")
    func updateKeepsIdentityInController() throws {
        let config = try Fixtures.config(["widgets.merch.rate=0"])
        var controller = Fixtures.loadedController(FeedAPI(catalog: try Fixtures.catalog(count: 9), config: config), config: config)
        _ = controller.scroll(ScrollSample(time: 0, y: 0))
        let card = CardRef(widget: 0, slot: 0)
        #expect(controller.state(of: card) == .ready)
        let carousel = try #require(controller.model.items[3].content)
        let oldHeight = controller.layout.frames[3].height
        var content = try #require({ if case .carousel(let content) = carousel { content } else { nil } }(), "item 3 is not a carousel")
        content.videos.removeLast(2)
        let output = controller.update(content.pageData(id: "c3"), page: 0, at: 1)
        #expect(controller.state(of: card) == .ready, "card states survive")
        #expect(controller.layout.cards(ofWidget: 3).count == 4)
        #expect(controller.layout.frames[3].height == oldHeight)
        #expect(Fixtures.transitions(output).allSatisfy { $0.card.widget == 3 })
    }

    @Test("card ids resolve to positions")
    func cardIDs() {
        var model = FeedModel()
        model.apply(page(0, [CarouselContent(title: "t", videos: [video, video]).pageData(id: "c1")]))
        #expect(model.card(id: "c1/1") == CardRef(widget: 0, slot: 1))
        #expect(model.card(id: "c1/2") == nil)
        #expect(model.card(id: "c9/0") == nil)
        #expect(model.card(id: "c1") == nil)
        #expect(model.index(ofWidget: "c1") == 0)
    }
}
