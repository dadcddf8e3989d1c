import ReelCore
import ReelEngine
import ReelFeed

/// What happened to each card of one run, folded from its events: the visibility state over time,
/// play spans, first frames, stalls and errors. The timeline view draws it.
struct SessionTimeline: Sendable {
    struct StateSpan: Sendable, Equatable {
        var start: Double
        var end: Double
        var state: VisibilityState
    }

    struct PlaySpan: Sendable, Equatable {
        var start: Double
        var end: Double
        /// Nil when the session ended while the card played.
        var reason: PlayStopReason?
        var userIntent: Bool
    }

    /// A point event on a card: a first frame (value = TTFF ms), a stall (value = ms) or an error.
    struct Mark: Sendable, Equatable {
        var time: Double
        var value: Double
        var text: String
    }

    struct CardTrack: Sendable {
        var id: String
        var states: [StateSpan] = []
        var plays: [PlaySpan] = []
        var firstFrames: [Mark] = []
        var stalls: [Mark] = []
        /// Variant switches (value: +1 up, -1 down; text: the reason and the variants).
        var switches: [Mark] = []
        var errors: [Mark] = []
        /// The preload stages the card reached (`text` is the stage).
        var stages: [Mark] = []
    }

    /// Cards in feed order.
    var cards: [CardTrack]
    /// Errors that name no card.
    var sessionErrors: [Mark]

    /// Folds `events` up to `end` seconds; `order` lists the card ids to show, in feed order
    /// (cards of the other run included, so two runs' rows line up).
    init(events: [SessionEvent], end: Double, order: [String]) {
        var tracks: [String: CardTrack] = [:]
        var current: [String: (since: Double, state: VisibilityState)] = [:]
        var playing: [String: (since: Double, userIntent: Bool)] = [:]
        var errors: [Mark] = []
        func track(_ card: String, _ update: (inout CardTrack) -> Void) {
            update(&tracks[card, default: CardTrack(id: card)])  // in place: no copy of the spans
        }
        for event in Self.chronological(events) {
            let t = event.time
            switch event.kind {
            case .visibility(let event):
                let card = event.card.rawValue
                let since = current[card] ?? (0, event.from)
                track(card) { $0.states.append(StateSpan(start: since.since, end: t, state: since.state)) }
                current[card] = (t, event.to)
            case .playStart(let event):
                let card = event.card.rawValue
                if let open = playing[card] {
                    track(card) { $0.plays.append(PlaySpan(start: open.since, end: t, reason: nil, userIntent: open.userIntent)) }
                }
                playing[card] = (t, event.userIntent)
                track(card) { _ in }
            case .playStop(let event):
                let card = event.card.rawValue
                guard let open = playing.removeValue(forKey: card) else { continue }
                track(card) { $0.plays.append(PlaySpan(start: open.since, end: t, reason: event.detail, userIntent: open.userIntent)) }
            case .firstFrame(let event):
                track(event.card.rawValue) { $0.firstFrames.append(Mark(time: t, value: event.ttffMs, text: "")) }
            case .stall(let event):
                track(event.card.rawValue) { $0.stalls.append(Mark(time: t, value: event.ms, text: "")) }
            case .variantSwitch(let event):
                let text = "segment \(event.segment): \(event.reason), \(Self.variantName(event.from)) to \(Self.variantName(event.to))"
                track(event.card.rawValue) { $0.switches.append(Mark(time: t, value: event.isUp ? 1 : -1, text: text)) }
            case .error(let event):
                if let card = event.card {
                    track(card.rawValue) { $0.errors.append(Mark(time: t, value: 0, text: event.message)) }
                } else {
                    errors.append(Mark(time: t, value: 0, text: event.message))
                }
            case .mount(let event), .unmount(let event):
                track(event.card.rawValue) { _ in }
            case .preload(let event):
                track(event.card.rawValue) { $0.stages.append(Mark(time: t, value: Double(event.stage.rawValue), text: event.stage.description)) }
            case .fetch, .prefetchQueued, .prefetchStarted, .prefetchDone, .prefetchCancelled:
                continue
            }
        }
        for (card, state) in current {
            track(card) { $0.states.append(StateSpan(start: state.since, end: max(end, state.since), state: state.state)) }
        }
        for (card, open) in playing {
            track(card) { $0.plays.append(PlaySpan(start: open.since, end: max(end, open.since), reason: nil, userIntent: open.userIntent)) }
        }
        cards = order.map { tracks[$0] ?? CardTrack(id: $0) }
        sessionErrors = errors
    }

    /// Events sorted by time, ties kept in file order.
    static func chronological(_ events: [SessionEvent]) -> [SessionEvent] {
        events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Card ids in feed order: by the widget's index (the number in "s12", "c3"), then the slot
    /// after the "/", then the id itself; ids without a number go last.
    static func feedOrder<S: Sequence>(_ ids: S) -> [String] where S.Element == String {
        func key(_ id: String) -> (Int, Int, String) {
            let parts = id.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            let widgetDigits = parts[0].reversed().prefix { $0.isASCII && $0.isNumber }.reversed()
            let widget = Int(String(widgetDigits)) ?? Int.max
            let slot = parts.count > 1 ? Int(parts[1]) ?? Int.max : -1
            return (widget, slot, id)
        }
        return Set(ids).map { (key($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// A variant's short name: its media playlist's folder ("720p" of ".../s15/720p/index.m3u8").
    static func variantName(_ url: String) -> String {
        let parts = url.split(separator: "#")[0].split(separator: "/")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : url
    }

    /// The widget part of a card id ("c3" of "c3/1").
    static func widget(of card: String) -> Substring {
        card.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]
    }
}
