import Foundation
import ReelCore

/// One input to the `FeedCoordinator`, given with its time (seconds on the engine's clock): what
/// the user did, what arrived, what a performer reported, or a wake-up the coordinator asked for.
public enum FeedInput: Sendable, Equatable {
    /// A launch window starts (a splash or the loading animation shows): with `launch.warmFeed` the
    /// feed's first page and the start of its first videos are fetched before it shows.
    case launch
    /// The feed shows: its first page is asked for (or taken from the launch window).
    case show
    /// The feed's vertical offset (top of the viewport, points) and, optionally, carousels'
    /// horizontal offsets by widget id. `line` names a trace line in warnings (0: live input).
    case scroll(y: Double, carousels: [String: Double], line: Int)
    /// The user's play on a card (by id, "s3/0").
    case tap(card: String, line: Int)
    /// The user's pause on a card.
    case pause(card: String)
    /// A page the coordinator asked for arrived.
    case page(FeedPage)
    /// A page the coordinator asked for could not be fetched.
    case pageFailed(FeedCursor, message: String)
    /// A player reported something the feed's rules act on.
    case player(PlayerID, PlayerReportKind)
    /// Media each live player holds, milliseconds (a periodic sample; playing ones count).
    case buffers([PlayerID: Int])
    /// A card's prefetch request completed: the card reached the stage it asked for.
    case prefetched(card: String)
    /// A card's prefetch request ended without completing (cancelled, or failed after its retries).
    case prefetchEnded(card: String)
    /// The app went to the background: plays pause, prefetch stops.
    case background
    /// The app came back: cards on screen may play again, prefetch resumes.
    case foreground
    /// The network went away or came back: prefetch stops while offline.
    case network(online: Bool)
    /// The link carries at most this many playing cards at once (the download policy's
    /// `carries`); nil: as many as the rules allow. A carousel plays fewer on a weak link.
    case linkCarries(Int?)
    /// A wake-up the coordinator asked for (`FeedAction.wake`) is due.
    case wake
    /// The session ends: every play stops, every card unmounts; nothing new starts.
    case close
}

/// What a player reports that the feed's rules act on (timings and bytes go to the events).
public enum PlayerReportKind: Sendable, Equatable {
    /// It holds its first frame decoded, ready to show.
    case prerolled
    /// It showed its first frame after a play.
    case firstFrame
    /// Its buffer ran dry while playing.
    case stalled
    /// It reached the end of the video.
    case ended
    /// It reached its grant's preview limit.
    case previewElapsed
    /// It failed; the message says why.
    case failed(String)
    /// It finished stopping after an unmount: it is gone.
    case stopped
}

/// A player the coordinator asked for, numbered from 1 in the order they were mounted.
public struct PlayerID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: PlayerID, b: PlayerID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "player \(rawValue)" }
}
