import ReelCore
/// When to ask the feed API for the next page: when the bottom of the viewport comes within
/// `pagination.loadMoreScreens` screens of the end of what is loaded, one request at a time, until
/// a page says the feed has ended.
public struct PaginationPolicy: Sendable {
    public let loadMoreScreens: Double
    /// The cursor of the next page to request; nil at the end of the feed or while one is in flight.
    public private(set) var next: FeedCursor? = .first
    /// The request in flight.
    public private(set) var inFlight: FeedCursor?

    public init(loadMoreScreens: Double) {
        self.loadMoreScreens = loadMoreScreens
    }

    public init(config: ReelConfig) {
        self.init(loadMoreScreens: config.pagination.loadMoreScreens)
    }

    /// Whether the last page has arrived.
    public var reachedEnd: Bool { next == nil && inFlight == nil }

    /// The cursor to request now, if the viewport is near the loaded end and no request is in flight.
    public mutating func request(viewportBottom: Double, viewportHeight: Double, contentHeight: Double) -> FeedCursor? {
        guard inFlight == nil, let cursor = next else { return nil }
        guard contentHeight - viewportBottom <= loadMoreScreens * viewportHeight else { return nil }
        inFlight = cursor
        next = nil
        return cursor
    }

    /// Records an arrived page; a page that was not requested is ignored.
    public mutating func received(_ page: FeedPage) {
        guard page.cursor == inFlight else { return }
        inFlight = nil
        next = page.next
    }

    /// Forgets a failed request so the same cursor is requested again.
    public mutating func failed(_ cursor: FeedCursor) {
        guard cursor == inFlight else { return }
        inFlight = nil
        next = cursor
    }
}
