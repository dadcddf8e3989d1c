import ReelCore
/// A short: one video with a title and a comment under it.
public struct ShortContent: Sendable, Hashable {
    public var video: Video
    public var title: String
    public var comment: String

    public init(video: Video, title: String, comment: String) {
        self.video = video
        self.title = title
        self.comment = comment
    }

    /// The standard mapper: reads `{video, title, comment}`.
    public init(pageData data: WidgetData) throws {
        let reader = PageDataReader(data)
        self.init(video: try reader.object("video").video(), title: try reader.string("title"), comment: try reader.string("comment"))
    }

    /// The page data the mock API sends.
    public func pageData(id: String, route: String = "short") -> WidgetData {
        WidgetData(id: id, route: route, fields: ["video": video.pageData, "title": .string(title), "comment": .string(comment)])
    }
}
