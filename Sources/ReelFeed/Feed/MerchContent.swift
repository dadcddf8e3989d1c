import ReelCore
/// A merch card: an image with a title and a footer; its height follows the image's ratio.
public struct MerchContent: Sendable, Hashable {
    public var imageURL: String
    public var imageWidth: Int
    public var imageHeight: Int
    public var title: String
    public var footer: String

    public init(imageURL: String, imageWidth: Int, imageHeight: Int, title: String, footer: String) {
        self.imageURL = imageURL
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.title = title
        self.footer = footer
    }

    /// The standard mapper: reads `{imageURL, imageWidth, imageHeight, title, footer}`.
    public init(pageData data: WidgetData) throws {
        let reader = PageDataReader(data)
        let width = try reader.int("imageWidth")
        let height = try reader.int("imageHeight")
        guard width > 0 else { throw reader.failure("imageWidth", "a positive integer") }
        guard height > 0 else { throw reader.failure("imageHeight", "a positive integer") }
        self.init(imageURL: try reader.string("imageURL"), imageWidth: width, imageHeight: height, title: try reader.string("title"), footer: try reader.string("footer"))
    }

    /// The page data the mock API sends.
    public func pageData(id: String, route: String = "merch") -> WidgetData {
        WidgetData(id: id, route: route, fields: [
            "imageURL": .string(imageURL),
            "imageWidth": .int(imageWidth),
            "imageHeight": .int(imageHeight),
            "title": .string(title),
            "footer": .string(footer),
        ])
    }
}
