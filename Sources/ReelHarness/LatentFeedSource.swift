import Foundation
import ReelCore
import ReelEngine
import ReelFeed

/// A feed source that answers after a simulated latency (`pagination.latencyMs`) on the engine's
/// clock, as a mobile app's paginated API would: the feed's pages for runs without a real API.
struct LatentFeedSource: FeedSource {
    let base: CatalogFeedSource
    let latency: Double
    let clock: EngineClock

    var baseURL: URL { base.baseURL }

    func page(_ cursor: FeedCursor) async throws -> FeedPage {
        if latency > 0 { try await clock.sleep(until: clock.now() + latency) }
        return try await base.page(cursor)
    }
}
