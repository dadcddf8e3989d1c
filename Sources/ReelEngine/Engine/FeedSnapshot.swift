import ReelCore
import ReelFeed

/// What a screen needs of a feed session now: where every widget and card is (the
/// coordinator's layout, and the model with each widget's content), each card's visibility
/// state, preload stage and play, and the session's running totals. `FeedEngine.snapshot` gives
/// the newest without waiting for the engine; it changes with every input the engine takes in.
/// The pictures to draw come from `FeedEngine.picture(card:)` and `thumbnail(card:)`.
public struct FeedSnapshot: Sendable {
    /// One card as a screen shows it.
    public struct Card: Sendable, Equatable {
        public var state: VisibilityState = .idle
        /// How far it is prepared for its play.
        public var stage: PreloadStage = .none
        /// A player is mounted for it.
        public var mounted = false
        /// It plays (from its playStart to its playStop).
        public var playing = false
        /// It plays and the first frame of this play has not shown yet (a spinner's time).
        public var waitingForFirstFrame = false
        /// Its player ran dry while playing and waits for media (a stall marker's time).
        public var stalled = false
        /// The time to first frame of its last play that reached one, milliseconds.
        public var lastTTFFMs: Double?
        /// Its stalls so far.
        public var stalls = 0

        public init() {}
    }

    /// The session's running figures, counted as its summary counts them: at the end they are
    /// the summary's.
    public struct Totals: Sendable, Equatable {
        /// Plays started (`SessionSummary.plays`).
        public var plays = 0
        /// Stalls (`SessionSummary.stalls.count`).
        public var stalls = 0
        /// Bytes and requests read from the network, not the cache (`SessionSummary.cdn` when no
        /// CDN bill replaces it).
        public var networkBytes: Int64 = 0
        public var networkRequests = 0
        /// Bytes the played videos' players read (`SessionSummary.bytesPlayed`).
        public var bytesPlayed: Int64 = 0
        /// The decoder pool's counters (`SessionSummary.decoders`), sampled four times a second.
        public var decoders = SessionSummary.Decoders()
        /// Errors met (`SessionSummary.errors`).
        public var errors = 0

        public init() {}
    }

    /// Increases with every change, so a screen can tell a new snapshot from the one it drew.
    public internal(set) var version = 0
    public internal(set) var phase = FeedCoordinator.Phase.launching
    /// Every widget's and card's frame, in content coordinates (points).
    public internal(set) var layout: FeedLayout
    /// The widgets' content (titles, comments, carousels' videos, merch) and ids, by position.
    public internal(set) var model: FeedModel
    /// The vertical offset the engine took in last.
    public internal(set) var offset = 0.0
    /// The cards the session has seen, by id ("s3/0"); an unknown card is idle.
    public internal(set) var cards: [String: Card] = [:]
    public internal(set) var totals = Totals()
    /// When it was taken, seconds on the engine's clock.
    public internal(set) var time = 0.0

    init(layout: FeedLayout, model: FeedModel) {
        self.layout = layout
        self.model = model
    }

    /// The card with this id, idle when the session has not seen it.
    public func card(_ id: String) -> Card { cards[id] ?? Card() }

    /// Applies a recorded event to the cards it concerns and to the totals it counts.
    mutating func apply(_ kind: SessionEvent.Kind) {
        switch kind {
        case .visibility(let change): cards[change.card.rawValue, default: Card()].state = change.to
        case .mount(let card): cards[card.card.rawValue, default: Card()].mounted = true
        case .unmount(let card):
            cards[card.card.rawValue, default: Card()].mounted = false
            cards[card.card.rawValue]?.stalled = false
        case .playStart(let start):
            totals.plays += 1
            cards[start.card.rawValue, default: Card()].playing = true
            cards[start.card.rawValue]?.waitingForFirstFrame = true
        case .playStop(let stop):
            cards[stop.card.rawValue, default: Card()].playing = false
            cards[stop.card.rawValue]?.waitingForFirstFrame = false
            cards[stop.card.rawValue]?.stalled = false
        case .preload(let preload): cards[preload.card.rawValue, default: Card()].stage = preload.stage
        case .firstFrame(let frame):
            cards[frame.card.rawValue, default: Card()].lastTTFFMs = frame.ttffMs
            cards[frame.card.rawValue]?.waitingForFirstFrame = false
        case .stall(let stall):
            totals.stalls += 1
            cards[stall.card.rawValue, default: Card()].stalls += 1
            cards[stall.card.rawValue]?.stalled = false
        case .error: totals.errors += 1
        default: break
        }
    }
}
