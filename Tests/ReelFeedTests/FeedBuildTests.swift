import ReelCore
import ReelFeed
import Testing

@Suite("Feed build output")
struct FeedBuildTests {
    @Test("JSON lists widgets with frames and videos, and the pages")
    func json() throws {
        let config = ReelConfig()
        let build = FeedBuild(api: FeedAPI(catalog: try Fixtures.catalog144(), config: config), config: config)
        let json = build.json
        let widgets = try #require(json["widgets"]?.array)
        let pages = try #require(json["pages"]?.array)
        #expect(widgets.count == build.model.count)
        #expect(pages.count == 5)
        #expect(pages.flatMap { $0["widgets"]?.array ?? [] }.count == widgets.count)

        let first = widgets[0]
        #expect(first.keys == ["index", "id", "type", "page", "videos", "frame"])
        #expect(first["id"] == .string("s0") && first["type"] == .string("short") && first["page"] == .int(0))
        let video = try #require(first["videos"]?.array?.first)
        #expect(video["url"] == .string("https://cdn.example.com/videos/000/manifest.m3u8"))
        #expect(video["aspectRatio"] == .string("16:9"))
        // 390 points wide video box at 3 pixels per point, 16:9 high.
        #expect(video["thumbnailURL"] == .string("https://img.example.com/1170/2080/thumb000.jpg?q=80"))
        #expect(first["frame"]?["width"] == .double(390))

        let carousels = widgets.filter { $0["type"] == .string("carousel") }
        #expect(carousels.count == 16)
        #expect(carousels.allSatisfy { $0["videos"]?.array?.count == 6 })
        let merch = try #require(widgets.first { $0["type"] == .string("merch") })
        #expect(merch["videos"] == .array([]))
        #expect(merch["imageURL"]?.string?.hasPrefix("https://picsum.photos/seed/") == true)
    }

    @Test("building only the first pages")
    func limited() throws {
        let config = ReelConfig()
        let build = FeedBuild(api: FeedAPI(catalog: try Fixtures.catalog144(), config: config), config: config, pages: 2)
        #expect(build.model.pages.count == 2)
        #expect(build.model.count == 30)
    }
}
