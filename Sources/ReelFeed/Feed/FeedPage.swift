import ReelCore
/// One page of the feed API: the widgets' page data and the cursor of the next page (nil at the end
/// of the feed).
public struct FeedPage: Sendable, Equatable {
    public let index: Int
    /// The cursor this page was requested with.
    public let cursor: FeedCursor
    public let widgets: [WidgetData]
    public let next: FeedCursor?

    public init(index: Int, cursor: FeedCursor, widgets: [WidgetData], next: FeedCursor?) {
        self.index = index
        self.cursor = cursor
        self.widgets = widgets
        self.next = next
    }
}
