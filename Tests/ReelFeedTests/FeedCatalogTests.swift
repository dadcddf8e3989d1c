import ReelCore
import ReelFeed
import Testing

@Suite("Feed catalog")
struct FeedCatalogTests {
    @Test("the 144-entry fixture in the original schema loads completely")
    func fixture() throws {
        let catalog = try Fixtures.catalog144()
        #expect(catalog.entries.count == 144)
        #expect(catalog.skipped.isEmpty)
        #expect(catalog.warning == nil)
        let first = try #require(catalog.entries.first)
        #expect(first.index == 0)
        #expect(first.url == "https://cdn.example.com/videos/000/manifest.m3u8")
        #expect(first.sourceType == "HLS")
        #expect(first.aspectRatio == AspectRatio(height: 16, width: 9))
        #expect(first.videoID == "v0")
    }

    @Test("aspectRatio is height:width and thumbnail placeholders are filled per request")
    func ratioAndThumbnail() throws {
        let catalog = try Fixtures.catalog(count: 2, ratios: ["16:9", "9:16"])
        #expect(catalog.entries[0].aspectRatio.heightPerWidth == 16.0 / 9.0)
        #expect(catalog.entries[1].aspectRatio.heightPerWidth == 9.0 / 16.0)
        let video = Video(entry: catalog.entries[0], lap: 0)
        #expect(video.thumbnailURL(width: 270, height: 480, quality: 70) == "https://img.test/270/480/0.jpg?q=70")
    }

    @Test("entries without a URL or with a bad ratio are skipped with one warning listing them")
    func skipped() throws {
        let json = """
        [
          {"video_source": {"url": "https://a/0.m3u8"}, "thumbail": {"aspectRatio": "16:9", "dynamicImageUrl": ""}},
          {"video_source": {"sourceType": "HLS"}, "thumbail": {"aspectRatio": "16:9"}},
          {"video_source": {"url": ""}, "thumbail": {"aspectRatio": "16:9"}},
          {"video_source": {"url": "https://a/3.m3u8"}, "thumbail": {"aspectRatio": "wide"}},
          {"video_source": {"url": "https://a/4.m3u8"}, "thumbail": {"aspectRatio": "0:9"}},
          {"video_source": {"url": "https://a/5.m3u8"}},
          {"video_source": {"url": "https://a/6.m3u8"}, "thumbnail": {"aspectRatio": "16:9"}},
          "not an object",
          {"video_source": {"url": "https://a/8.m3u8"}, "thumbail": {"aspectRatio": "4:3"}}
        ]
        """
        let catalog = try FeedCatalog.parse(json, source: "feed.json")
        #expect(catalog.entries.map(\.index) == [0, 8])
        #expect(catalog.skipped.map(\.index) == [1, 2, 3, 4, 5, 6, 7])
        let warning = try #require(catalog.warning)
        #expect(warning.contains("feed.json"))
        #expect(warning.contains("skipped 7 of 9"))
        #expect(warning.contains("#3 (bad aspectRatio \"wide\")"))
        #expect(warning.contains("#1 (no video_source.url)"))
    }

    @Test("ratios are bounded to 1:10...10:1; beyond, the entry is skipped naming the range")
    func ratiosOutOfRange() throws {
        let ratios = ["1e308:1", "1:1e308", "10.5:1", "1:10.5", "10:1", "1:10", "16:9"]
        let json = "[" + ratios.enumerated().map { index, ratio in
            #"{"video_source": {"url": "https://a/\#(index).m3u8"}, "thumbail": {"aspectRatio": "\#(ratio)"}}"#
        }.joined(separator: ",") + "]"
        let catalog = try FeedCatalog.parse(json, source: "feed.json")
        #expect(catalog.entries.map(\.index) == [4, 5, 6])
        #expect(catalog.skipped.map(\.index) == [0, 1, 2, 3])
        #expect(catalog.skipped.first?.reason == "aspectRatio \"1e308:1\" is not between 1:10 and 10:1")
        #expect(catalog.entries.map(\.aspectRatio.heightPerWidth) == [10, 0.1, 16.0 / 9.0])
        #expect(AspectRatio("1e308:1") == nil && AspectRatio(height: 1, width: 1e308) == nil)
    }

    @Test("a file that is not a JSON array is a clear error", arguments: [
        #"{"video_source": {}}"#, "42", "[1, 2", "",
    ])
    func notAnArray(json: String) {
        do {
            _ = try FeedCatalog.parse(json, source: "feed.json")
            Issue.record("expected an error")
        } catch let error as ReelError {
            #expect(error.code == .invalidCatalog)
            #expect(error.message.contains("feed.json"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect(throws: ReelError.self) { try FeedCatalog.load(path: "/nonexistent/video-feed.json") }
    }

    @Test("an empty catalog is an empty feed")
    func empty() throws {
        let catalog = try FeedCatalog.parse("[]")
        #expect(catalog.entries.isEmpty)
        let config = ReelConfig()
        let api = FeedAPI(catalog: catalog, config: config)
        let pages = api.pages()
        #expect(pages.count == 1)
        #expect(pages[0].widgets.isEmpty)
        #expect(pages[0].next == nil)
        let build = FeedBuild(api: api, config: config)
        #expect(build.model.count == 0)
        #expect(build.layout.contentHeight == 0)
    }
}
