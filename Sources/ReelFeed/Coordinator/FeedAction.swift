import Foundation
import ReelCore

/// What the `FeedCoordinator` asks its performers to do, in the order given: fetch a page, load a
/// thumbnail, prefetch for a card, drive a player, set the prefetch gate, wake it at a time, and
/// facts for the session's events.
public enum FeedAction: Sendable, Equatable {
    /// Fetch this page of the feed and hand it back (`FeedInput.page` or `.pageFailed`).
    case fetchPage(FeedCursor)
    /// Load the card's thumbnail (a merch card's image) through the cache.
    case loadThumbnail(card: String, url: URL)
    /// Prefetch for a card, replacing any request of it still open.
    case prefetch(PrefetchOrder)
    /// Move the card's open request up to `category`, at `rank` within it.
    case reprioritize(card: String, category: PrefetchCategory, rank: Int)
    /// Drop what is queued or running for the card.
    case cancelPrefetch(card: String)
    /// What prefetch may run while something plays.
    case setGate(PrefetchGate)
    /// Whether a playing video runs low (prefetch then lowers its cap, `prefetch.pauseWhileStarving`).
    case setStarving(Bool)
    /// Make a player for the card's video and prepare it (open, take a decoder, buffer ahead).
    case mount(PlayerID, card: String, video: URL)
    /// Play; `previewLimit` (seconds of media) pauses it and reports `previewElapsed`.
    case play(PlayerID, previewLimit: Double?)
    case pause(PlayerID)
    /// Stop the player (input closed, decoder back to the pool) and report `stopped` when done.
    case unmount(PlayerID)
    /// Hand the coordinator `FeedInput.wake` at this time.
    case wake(at: Double)
    /// Something to write into the session's events.
    case record(FeedFact)
}

/// One prefetch request: the card, its video, why (category) and how near (rank: points from
/// the focus, nearer first), and how much (`amount` nil: the category's default segments) to
/// bring it to `stage`.
public struct PrefetchOrder: Sendable, Equatable {
    public var card: String
    public var video: URL
    public var category: PrefetchCategory
    public var rank: Int
    public var stage: PreloadStage
    public var amount: PrefetchAmount?
}

/// A decision of the coordinator's worth an event.
public enum FeedFact: Sendable, Equatable {
    case visibility(card: String, from: VisibilityState, to: VisibilityState)
    case mount(card: String)
    case unmount(card: String)
    case playStart(card: String, widget: String, type: WidgetType, userIntent: Bool, stage: PreloadStage)
    case playStop(card: String, reason: PlayStopReason)
    /// The card reached a preload stage.
    case preload(card: String, stage: PreloadStage)
    /// A card's player failed while it was the card's.
    case error(card: String?, message: String)
    /// Something a person should know (an unknown id in a trace, a collapsed widget).
    case warning(String)
}
