import ReelCore
/// The paginated mock feed API: serves the planned widgets page by page (`pagination.firstPageSize`
/// for the first page, `pagination.pageSize` after), with a simulated latency waited on an
/// injected clock, until the end of the feed (or forever when the catalog loops without a limit).
public struct FeedAPI: Sendable {
    public let planner: WidgetPlanner
    public let firstPageSize: Int
    public let pageSize: Int
    /// Simulated time one page request takes.
    public let latency: Duration

    public init(catalog: FeedCatalog, config: ReelConfig) {
        planner = WidgetPlanner(catalog: catalog, config: config)
        firstPageSize = config.pagination.firstPageSize
        pageSize = config.pagination.pageSize
        latency = .milliseconds(config.pagination.latencyMs)
    }

    /// Whether the feed never ends.
    public var isEndless: Bool { planner.isEndless }

    /// The page at `cursor`, computed at once (no latency). Its `next` is nil when no widget
    /// follows it.
    public func page(_ cursor: FeedCursor) -> FeedPage {
        let size = cursor.page == 0 ? firstPageSize : pageSize
        var state = cursor
        var widgets: [WidgetData] = []
        widgets.reserveCapacity(size)
        while widgets.count < size, let widget = planner.next(&state) {
            widgets.append(widget)
        }
        state.page = cursor.page + 1
        var probe = state
        let next: FeedCursor? = planner.next(&probe) == nil ? nil : state
        return FeedPage(index: cursor.page, cursor: cursor, widgets: widgets, next: next)
    }

    /// The page at `cursor` after the simulated latency has passed on `clock`.
    public func page<C: Clock>(_ cursor: FeedCursor, clock: C) async throws -> FeedPage where C.Duration == Duration {
        if latency > .zero {
            try await clock.sleep(until: clock.now.advanced(by: latency), tolerance: nil)
        }
        return page(cursor)
    }

    /// Pages from the start: all of them, or the first `limit`. An endless feed needs a limit; without
    /// one it stops after `endlessCap` pages.
    public func pages(limit: Int? = nil, endlessCap: Int = 1000) -> [FeedPage] {
        var pages: [FeedPage] = []
        var cursor: FeedCursor? = .first
        let cap = limit ?? (isEndless ? endlessCap : Int.max)
        while let current = cursor, pages.count < cap {
            let page = page(current)
            pages.append(page)
            cursor = page.next
        }
        return pages
    }
}
