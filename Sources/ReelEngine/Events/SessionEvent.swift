import OrderedCollections
import ReelCore

/// One thing that happened in a feed session, at `time` seconds from its start: what `reel feed
/// run --events` writes, one JSON object per line, and what the report and `check-events` read.
/// Card and widget ids are the feed's stable strings ("s0/0", "c3/2", "c3").
public struct SessionEvent: Sendable, Equatable {
    /// Who fetched bytes: the prefetcher, a player, or a card's thumbnail.
    public enum Origin: String, Sendable, Hashable, CaseIterable {
        case prefetch, playback, thumbnail
    }

    public enum Kind: Sendable, Equatable {
        case visibility(card: String, from: VisibilityState, to: VisibilityState)
        case prefetchQueued(url: String, card: String?, category: String)
        case prefetchStarted(url: String)
        case prefetchDone(url: String, bytes: Int64)
        case prefetchCancelled(url: String, bytes: Int64)
        /// A resource read by someone: its body bytes and whether the cache served them.
        case fetch(url: String, bytes: Int64, cacheHit: Bool, origin: Origin, card: String?)
        case mount(card: String)
        case unmount(card: String)
        case playStart(card: String, widget: String, widgetType: WidgetType, userIntent: Bool)
        /// `reason` is paused, ended, preview or revoked; `detail` the arbiter's precise reason.
        case playStop(card: String, reason: PlayStopReason)
        case firstFrame(card: String, ttffMs: Double, phases: OrderedDictionary<String, Double>)
        case stall(card: String, ms: Double)
        case error(card: String?, message: String)

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
            case .error: "error"
            }
        }
    }

    public var time: Double
    public var kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The card the event is about, if any.
    public var card: String? {
        switch kind {
        case .visibility(let card, _, _), .mount(let card), .unmount(let card), .playStart(let card, _, _, _),
             .playStop(let card, _), .firstFrame(let card, _, _), .stall(let card, _):
            card
        case .prefetchQueued(_, let card, _), .fetch(_, _, _, _, let card), .error(let card, _):
            card
        case .prefetchStarted, .prefetchDone, .prefetchCancelled:
            nil
        }
    }

    /// The stop reason as the events file names it: paused, ended, preview or revoked.
    public static func fileReason(_ reason: PlayStopReason) -> String {
        switch reason {
        case .paused, .userPaused: "paused"
        case .ended: "ended"
        case .preview: "preview"
        case .unmounted, .yielded, .preempted: "revoked"
        }
    }

    /// The event as one JSON object: `{"t", "type", ...}`.
    public var json: JSONValue {
        var fields: OrderedDictionary<String, JSONValue> = ["t": .double((time * 1e6).rounded() / 1e6), "type": .string(kind.name)]
        switch kind {
        case .visibility(let card, let from, let to):
            fields["card"] = .string(card)
            fields["from"] = .string(from.rawValue)
            fields["to"] = .string(to.rawValue)
        case .prefetchQueued(let url, let card, let category):
            fields["url"] = .string(url)
            fields["card"] = .optional(card)
            fields["category"] = .string(category)
        case .prefetchStarted(let url):
            fields["url"] = .string(url)
        case .prefetchDone(let url, let bytes), .prefetchCancelled(let url, let bytes):
            fields["url"] = .string(url)
            fields["bytes"] = .int(Int(bytes))
        case .fetch(let url, let bytes, let cacheHit, let origin, let card):
            fields["url"] = .string(url)
            fields["bytes"] = .int(Int(bytes))
            fields["cacheHit"] = .bool(cacheHit)
            fields["origin"] = .string(origin.rawValue)
            fields["card"] = .optional(card)
        case .mount(let card), .unmount(let card):
            fields["card"] = .string(card)
        case .playStart(let card, let widget, let widgetType, let userIntent):
            fields["card"] = .string(card)
            fields["widget"] = .string(widget)
            fields["widgetType"] = .string(widgetType.rawValue)
            fields["userIntent"] = .bool(userIntent)
        case .playStop(let card, let reason):
            fields["card"] = .string(card)
            fields["reason"] = .string(Self.fileReason(reason))
            fields["detail"] = .string(reason.rawValue)
        case .firstFrame(let card, let ttffMs, let phases):
            fields["card"] = .string(card)
            fields["ttffMs"] = .double(ttffMs)
            fields["phases"] = .object(phases.mapValues(JSONValue.double))
        case .stall(let card, let ms):
            fields["card"] = .string(card)
            fields["ms"] = .double(ms)
        case .error(let card, let message):
            fields["card"] = .optional(card)
            fields["message"] = .string(message)
        }
        return .object(fields)
    }
}
