import ReelCore
import ReelEngine
import ReelFeed

/// What `FeedRun` runs: the catalog, the scroll trace, where the streams come from and the screen.
package struct FeedRunRequest: Sendable {
    package var catalog: FeedCatalog
    package var trace: ScrollTrace
    package var origin: FeedOrigin
    /// The screen in points (default: `device.screenWidth` x `device.screenHeight`).
    package var screen: Size?
    /// Seconds of launch animation before the feed shows (the trace starts after them).
    package var launchSeconds: Double
    /// The real engine in real time, or the simulation in virtual time.
    package var engine: FeedRunEngine = .real

    package init(catalog: FeedCatalog, trace: ScrollTrace, origin: FeedOrigin, screen: Size? = nil, launchSeconds: Double = 0) {
        self.catalog = catalog
        self.trace = trace
        self.origin = origin
        self.screen = screen
        self.launchSeconds = launchSeconds
    }
}

/// What runs a feed session.
package enum FeedRunEngine: String, Sendable, Hashable, CaseIterable {
    /// The real engine (players, cache, prefetch) against the CDN simulator, in real time.
    case real
    /// The coordinator with models of the link, players, cache and prefetch, in virtual time
    /// (`FeedSimulation`; docs/simulation.md).
    case simulate
}
