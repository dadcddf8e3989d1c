import ReelCore
/// One usable video of the feed catalog: its stream URL, its ratio and its thumbnail template.
public struct CatalogEntry: Sendable, Hashable {
    /// Position in the catalog file, 0-based, counting skipped entries too, so ids stay put when a
    /// bad entry is fixed.
    public let index: Int
    public let url: String
    /// "HLS" or "DASH" as the file says; empty when absent.
    public let sourceType: String
    public let aspectRatio: AspectRatio
    /// The thumbnail's `dynamicImageUrl` with `{@width}`, `{@height}`, `{@quality}` unfilled.
    public let thumbnailTemplate: String

    public init(index: Int, url: String, sourceType: String = "HLS", aspectRatio: AspectRatio, thumbnailTemplate: String = "") {
        self.index = index
        self.url = url
        self.sourceType = sourceType
        self.aspectRatio = aspectRatio
        self.thumbnailTemplate = thumbnailTemplate
    }

    /// The video's stable id: "v" and its catalog index ("v12").
    public var videoID: String { "v\(index)" }
}
