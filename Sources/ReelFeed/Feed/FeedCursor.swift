import ReelCore
/// Where the next page of the feed starts. It carries the whole state of the widget plan (catalog
/// position, rhythm, merch spacing), so a page is a pure function of its cursor, as an opaque
/// server cursor would be.
public struct FeedCursor: Sendable, Hashable {
    /// Index of the page this cursor fetches.
    public internal(set) var page: Int
    /// Feed position of the page's first widget.
    public internal(set) var widget: Int
    /// Next position in the video sequence (catalog entries, lap after lap when looping).
    var video: Int
    /// Video widgets (shorts and carousels) planned so far.
    var videoWidgets: Int
    /// Merch widgets planned so far.
    var merchWidgets: Int
    /// Video widgets since the last merch widget (or the start).
    var sinceMerch: Int
    /// Whether the gap after the last video widget has not been considered for merch yet.
    var gapPending: Bool

    /// The start of the feed.
    public static let first = FeedCursor(page: 0, widget: 0, video: 0, videoWidgets: 0, merchWidgets: 0, sinceMerch: 0, gapPending: false)
}
