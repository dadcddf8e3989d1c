/// The kinds of widget in the feed.
public enum WidgetType: String, Sendable, Hashable, CaseIterable, Codable {
    /// One video, full width, with a title and a comment.
    case short
    /// A horizontal row of video cards.
    case carousel
    /// A shopping card with an image, a title and a footer.
    case merch

    /// A dense index for per-type tables.
    public var ordinal: Int {
        switch self {
        case .short: 0
        case .carousel: 1
        case .merch: 2
        }
    }
}
