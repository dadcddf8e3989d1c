import ReelCore
/// One video of the feed: a catalog entry at one pass through the catalog.
public struct Video: Sendable, Hashable {
    /// "v<catalog index>", with "@<lap>" after the first pass of a looping feed ("v12@1").
    public let id: String
    /// Position of the entry in the catalog file.
    public let catalogIndex: Int
    /// Pass through the catalog, 0 for the first.
    public let lap: Int
    public let url: String
    public let aspectRatio: AspectRatio
    /// Thumbnail URL template with `{@width}`, `{@height}`, `{@quality}` unfilled.
    public let thumbnailTemplate: String

    public init(catalogIndex: Int, lap: Int, url: String, aspectRatio: AspectRatio, thumbnailTemplate: String) {
        self.id = lap == 0 ? "v\(catalogIndex)" : "v\(catalogIndex)@\(lap)"
        self.catalogIndex = catalogIndex
        self.lap = lap
        self.url = url
        self.aspectRatio = aspectRatio
        self.thumbnailTemplate = thumbnailTemplate
    }

    public init(entry: CatalogEntry, lap: Int) {
        self.init(catalogIndex: entry.index, lap: lap, url: entry.url, aspectRatio: entry.aspectRatio, thumbnailTemplate: entry.thumbnailTemplate)
    }

    /// The thumbnail URL for one request size.
    public func thumbnailURL(width: Int, height: Int, quality: Int) -> String {
        ThumbnailTemplate.url(thumbnailTemplate, width: width, height: height, quality: quality)
    }
}
