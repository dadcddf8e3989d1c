import ReelCore
import ReelFeed
import ReelMedia
import ReelNet

/// One thing that happened in a feed session, at `time` seconds from its start: what `reel feed
/// run --events` writes, one JSON object per line (`{"t", "type", ...the kind's fields}`), and
/// what the report and `check-events` read. Each kind's fields are a `Codable` struct below, so
/// the file format is the Swift shape; `SessionEvent+Coding` adds only the `type` discriminator.
public struct SessionEvent: Sendable, Equatable {
    /// Who fetched bytes: the prefetcher, a player, or a card's thumbnail.
    public enum Origin: String, Sendable, Hashable, Codable, CaseIterable {
        case prefetch, playback, thumbnail
    }

    public enum Kind: Sendable, Equatable {
        case visibility(Visibility)
        case prefetchQueued(PrefetchQueued)
        case prefetchStarted(PrefetchStarted)
        case prefetchDone(PrefetchEnd)
        case prefetchCancelled(PrefetchEnd)
        /// A resource read by someone: its body bytes and how many of them the cache served.
        case fetch(Fetch)
        case mount(CardOnly)
        case unmount(CardOnly)
        case playStart(PlayStart)
        case playStop(PlayStop)
        case firstFrame(FirstFrame)
        case stall(Stall)
        /// A playing card's next segment comes from another variant (adaptive bitrate).
        case variantSwitch(VariantSwitch)
        case error(Failure)
        /// A card reached a preload stage (its manifests or first media on disk, a first frame held).
        case preload(Preload)
    }

    public var time: Double
    public var kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    // MARK: The kinds' fields

    /// A card's visibility state changed.
    public struct Visibility: Sendable, Equatable, Codable {
        public var card: CardID
        public var from: VisibilityState
        public var to: VisibilityState
    }

    public struct PrefetchQueued: Sendable, Equatable, Codable {
        public var url: String
        /// The card it is for; nil for a page's videos not tied to one.
        public var card: CardID?
        public var category: PrefetchCategory
    }

    public struct PrefetchStarted: Sendable, Equatable, Codable {
        public var url: String
    }

    /// A prefetch done or cancelled, with the bytes it fetched from the network.
    public struct PrefetchEnd: Sendable, Equatable, Codable {
        public var url: String
        @NonNegative public var bytes: Int64
    }

    public struct Fetch: Sendable, Equatable, Codable {
        public var url: String
        /// Body bytes the reader got.
        @NonNegative public var bytes: Int64
        /// Of those, bytes the cache served (a cached entry, the cached start of a resumed one, or
        /// another reader's transfer of the same resource); `bytes - cacheBytes` came from the network.
        @NonNegative public var cacheBytes: Int64
        /// The whole resource came from the cache.
        public var cacheHit: Bool
        public var origin: Origin
        public var card: CardID?
        /// How long the read took, from its open to its end (when known: the prefetcher's items
        /// report none); the event's time is its end.
        public var durationMs: Double?

        /// Bytes that came from the network for this reader.
        public var networkBytes: Int64 { max(0, bytes - cacheBytes) }
    }

    /// An event about one card and nothing else (mount, unmount).
    public struct CardOnly: Sendable, Equatable, Codable {
        public var card: CardID
    }

    public struct PlayStart: Sendable, Equatable, Codable {
        public var card: CardID
        public var widget: WidgetID
        public var widgetType: WidgetType
        /// The user asked (a tap), rather than autoplay.
        public var userIntent: Bool
        /// The preload stage the card had reached when the play was asked for (absent in events
        /// written before stages existed).
        public var stage: PreloadStage?
    }

    public struct Preload: Sendable, Equatable, Codable {
        public var card: CardID
        public var stage: PreloadStage
    }

    /// A play stopped: `reason` is how the file names it (paused, ended, preview or revoked),
    /// `detail` the arbiter's precise reason.
    public struct PlayStop: Sendable, Equatable {
        public var card: CardID
        public var detail: PlayStopReason
        public var reason: String { SessionEvent.fileReason(detail) }
    }

    public struct FirstFrame: Sendable, Equatable, Codable {
        public var card: CardID
        /// From playStart to the first frame.
        public var ttffMs: Double
        /// The player's own phases (from its play request, which can be before playStart when it
        /// was prepared ahead).
        public var phases: TTFFBreakdown
    }

    public struct Stall: Sendable, Equatable, Codable {
        public var card: CardID
        public var ms: Double
    }

    /// A variant switch at a segment boundary: variants by their media playlist URL; `reason`
    /// is `up`, `down-throughput`, `down-buffer` or `down-stall`.
    public struct VariantSwitch: Sendable, Equatable, Codable {
        public var card: CardID
        public var segment: Int
        public var from: String
        public var to: String
        public var reason: String

        public var isUp: Bool { reason == "up" }
    }

    public struct Failure: Sendable, Equatable, Codable {
        public var card: CardID?
        public var message: String
    }

    /// The stop reason as the events file names it: paused, ended, preview or revoked.
    public static func fileReason(_ reason: PlayStopReason) -> String {
        switch reason {
        case .paused, .userPaused: "paused"
        case .ended: "ended"
        case .preview: "preview"
        case .unmounted, .yielded, .preempted, .narrowed: "revoked"
        }
    }
}

extension SessionEvent.Kind {
    // Constructors by field, as the session and tests write events.
    public static func visibility(card: CardID, from: VisibilityState, to: VisibilityState) -> Self {
        .visibility(.init(card: card, from: from, to: to))
    }
    public static func prefetchQueued(url: String, card: CardID?, category: PrefetchCategory) -> Self {
        .prefetchQueued(.init(url: url, card: card, category: category))
    }
    public static func prefetchStarted(url: String) -> Self { .prefetchStarted(.init(url: url)) }
    public static func prefetchDone(url: String, bytes: Int64) -> Self { .prefetchDone(.init(url: url, bytes: bytes)) }
    public static func prefetchCancelled(url: String, bytes: Int64) -> Self { .prefetchCancelled(.init(url: url, bytes: bytes)) }
    public static func fetch(url: String, bytes: Int64, cacheBytes: Int64, cacheHit: Bool, origin: SessionEvent.Origin,
                             card: CardID?, durationMs: Double? = nil) -> Self {
        .fetch(.init(url: url, bytes: bytes, cacheBytes: cacheBytes, cacheHit: cacheHit, origin: origin, card: card,
                     durationMs: durationMs))
    }
    public static func mount(card: CardID) -> Self { .mount(.init(card: card)) }
    public static func unmount(card: CardID) -> Self { .unmount(.init(card: card)) }
    public static func playStart(card: CardID, widget: WidgetID, widgetType: WidgetType, userIntent: Bool,
                                 stage: PreloadStage? = nil) -> Self {
        .playStart(.init(card: card, widget: widget, widgetType: widgetType, userIntent: userIntent, stage: stage))
    }
    public static func preload(card: CardID, stage: PreloadStage) -> Self { .preload(.init(card: card, stage: stage)) }
    public static func playStop(card: CardID, reason: PlayStopReason) -> Self { .playStop(.init(card: card, detail: reason)) }
    public static func firstFrame(card: CardID, ttffMs: Double, phases: TTFFBreakdown = TTFFBreakdown()) -> Self {
        .firstFrame(.init(card: card, ttffMs: ttffMs, phases: phases))
    }
    public static func stall(card: CardID, ms: Double) -> Self { .stall(.init(card: card, ms: ms)) }
    public static func variantSwitch(card: CardID, segment: Int, from: String, to: String, reason: String) -> Self {
        .variantSwitch(.init(card: card, segment: segment, from: from, to: to, reason: reason))
    }
    public static func error(card: CardID?, message: String) -> Self { .error(.init(card: card, message: message)) }

    /// The name written as `"type"`.
    public var name: String {
        switch self {
        case .visibility: "visibility"
        case .prefetchQueued: "prefetchQueued"
        case .prefetchStarted: "prefetchStarted"
        case .prefetchDone: "prefetchDone"
        case .prefetchCancelled: "prefetchCancelled"
        case .fetch: "fetch"
        case .mount: "mount"
        case .unmount: "unmount"
        case .playStart: "playStart"
        case .playStop: "playStop"
        case .firstFrame: "firstFrame"
        case .stall: "stall"
        case .variantSwitch: "variantSwitch"
        case .error: "error"
        case .preload: "preload"
        }
    }
}

extension SessionEvent {
    /// The card the event is about, if any.
    public var card: CardID? {
        switch kind {
        case .visibility(let event): event.card
        case .mount(let event), .unmount(let event): event.card
        case .playStart(let event): event.card
        case .playStop(let event): event.card
        case .firstFrame(let event): event.card
        case .stall(let event): event.card
        case .variantSwitch(let event): event.card
        case .prefetchQueued(let event): event.card
        case .fetch(let event): event.card
        case .error(let event): event.card
        case .preload(let event): event.card
        case .prefetchStarted, .prefetchDone, .prefetchCancelled: nil
        }
    }

    /// The play facts in a session's events, for `PlayRulesChecker`.
    public var playFact: PlayFact? {
        switch kind {
        case .mount(let event): PlayFact(time: time, card: event.card.rawValue, kind: .mount)
        case .unmount(let event): PlayFact(time: time, card: event.card.rawValue, kind: .unmount)
        case .playStart(let event):
            PlayFact(time: time, card: event.card.rawValue,
                     kind: .playStart(widget: event.widget.rawValue, type: event.widgetType, userIntent: event.userIntent))
        case .playStop(let event): PlayFact(time: time, card: event.card.rawValue, kind: .playStop(reason: event.detail))
        default: nil
        }
    }
}
