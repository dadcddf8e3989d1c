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
    /// Cancelled to end a real-time run early (Ctrl-C): the trace stops where it is, the session
    /// closes and the run returns what it did, marked `interrupted`.
    package var stop: Cancellation?
    /// Hears where a real-time run stands as its events come (a progress line).
    package var onProgress: (@Sendable (FeedRunProgress) -> Void)?

    package init(catalog: FeedCatalog, trace: ScrollTrace, origin: FeedOrigin, screen: Size? = nil, launchSeconds: Double = 0) {
        self.catalog = catalog
        self.trace = trace
        self.origin = origin
        self.screen = screen
        self.launchSeconds = launchSeconds
    }
}

/// Where a running session stands: how far into its trace, its plays so far and how many of
/// them showed a first frame within `SessionSummary.fastStartMs`.
package struct FeedRunProgress: Sendable, Hashable {
    /// Seconds of the trace played (from when the feed showed).
    package var traceSeconds = 0.0
    /// The trace's length.
    package var traceLength = 0.0
    package var plays = 0
    package var firstFrames = 0
    package var startedFast = 0

    package init(traceLength: Double) {
        self.traceLength = traceLength
    }

    /// Takes in one event of the session (`launchSeconds` before the feed showed).
    package mutating func note(_ event: SessionEvent, launchSeconds: Double) {
        traceSeconds = max(traceSeconds, min(traceLength, event.time - launchSeconds))
        switch event.kind {
        case .playStart: plays += 1
        case .firstFrame(let frame):
            firstFrames += 1
            if frame.ttffMs <= SessionSummary.fastStartMs { startedFast += 1 }
        default: break
        }
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
