import ReelCore
/// A carousel: a title over a horizontal row of video cards.
public struct CarouselContent: Sendable, Hashable {
    public var title: String
    public var videos: [Video]

    public init(title: String, videos: [Video]) {
        self.title = title
        self.videos = videos
    }

    /// The standard mapper: reads `{title, videos: [...]}`; a carousel without videos fails.
    public init(pageData data: WidgetData) throws {
        let reader = PageDataReader(data)
        let videos = try reader.objects("videos").map { try $0.video() }
        guard !videos.isEmpty else { throw reader.failure("videos", "a non-empty array") }
        self.init(title: try reader.string("title"), videos: videos)
    }

    /// The page data the mock API sends.
    public func pageData(id: String, route: String = "carousel") -> WidgetData {
        WidgetData(id: id, route: route, fields: ["title": .string(title), "videos": .array(videos.map(\.pageData))])
    }
}
