import ReelCore
/// One widget of the feed after resolution: its data's id and route, its content (nil when it
/// collapsed) and its identity, which survives updates with the same route.
public struct FeedItem: Sendable {
    /// Position in the feed.
    public let index: Int
    public let id: String
    public internal(set) var route: String
    /// The resolved content; nil when the widget collapsed to zero height.
    public internal(set) var content: WidgetContent?
    /// Why the widget collapsed, when it did.
    public internal(set) var failure: String?
    /// The page the widget last came in.
    public internal(set) var page: Int
    /// Identity: kept by an update in place, new when the widget is recreated (another route).
    public internal(set) var instance: Int
    /// Incremented by each update in place.
    public internal(set) var revision: Int
    public internal(set) var cards: [Card]

    /// The content's type; nil when collapsed.
    public var type: WidgetType? { content?.type }

    public var isCollapsed: Bool { content == nil }
}
