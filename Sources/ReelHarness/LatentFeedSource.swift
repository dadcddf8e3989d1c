import Foundation
import ReelCore
import ReelEngine
import ReelFeed

/// A feed source that answers after a simulated latency (`pagination.latencyMs`) on the engine's
/// clock, as a mobile app's paginated API would: the feed's pages for runs without a real API
/// (`feed run`, and the viewer on served samples).
package struct LatentFeedSource: FeedSource {
    let base: CatalogFeedSource
    let latency: Double
    let clock: EngineClock

    /// `base`'s pages, each `latency` seconds after it is asked for on `clock`.
    package init(base: CatalogFeedSource, latency: Double, clock: EngineClock) {
        self.base = base
        self.latency = latency
        self.clock = clock
    }

    package var baseURL: URL { base.baseURL }

    package func page(_ cursor: FeedCursor) async throws -> FeedPage {
        if latency > 0 { try await clock.sleep(until: clock.now() + latency) }
        return try await base.page(cursor)
    }
}
