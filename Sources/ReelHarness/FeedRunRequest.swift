import ReelCore
import ReelEngine
import ReelFeed

/// What `FeedRun` runs: the catalog, the scroll trace, where the streams come from and the screen.
public struct FeedRunRequest: Sendable {
    public var catalog: FeedCatalog
    public var trace: ScrollTrace
    public var origin: FeedOrigin
    /// The screen in points (default: `device.screenWidth` x `device.screenHeight`).
    public var screen: Size?
    /// Seconds of launch animation before the feed shows (the trace starts after them).
    public var launchSeconds: Double

    public init(catalog: FeedCatalog, trace: ScrollTrace, origin: FeedOrigin, screen: Size? = nil, launchSeconds: Double = 0) {
        self.catalog = catalog
        self.trace = trace
        self.origin = origin
        self.screen = screen
        self.launchSeconds = launchSeconds
    }
}
