import ReelCore
/// Checks a time-ordered sequence of play facts against the play rules and reports every
/// violation with its time and cards. It knows nothing of the arbiter: it reads what players
/// did (mounts, starts, stops), so it can judge the arbiter's output as well as the event file
/// of a whole feed session.
///
/// Rules checked at each fact: one widget playing at a time; at most the type's limit of one
/// widget's cards playing (low-end: one card); no autoplay of a card whose play ended or reached
/// its preview; low-end: no autoplay and at most one mounted player; a play starts only on a
/// mounted card. It also flags facts that do not fit together: a start on a playing card, a stop
/// on a card not playing, time going backwards. An unmount stops a playing card silently.
public struct PlayRulesChecker: Sendable {
    private struct Playing: Sendable {
        var widget: String
        var type: WidgetType
    }

    /// Cards of one widget playing at once at most, by `WidgetType.ordinal`.
    public let maxSimultaneous: [Int]
    public let isLowEnd: Bool

    private var mounted: Set<String> = []
    private var playing: [String: Playing] = [:]
    /// Cards whose play stopped with `ended` or `preview`.
    private var finished: Set<String> = []
    private var lastTime: Double?

    /// Every violation found so far, in the order found.
    public private(set) var violations: [PlayRuleViolation] = []

    /// A checker with per-type limits (types not named may not play).
    public init(maxSimultaneous: [WidgetType: Int], isLowEnd: Bool) {
        self.maxSimultaneous = WidgetType.allCases.map { maxSimultaneous[$0] ?? 0 }
        self.isLowEnd = isLowEnd
    }

    /// A checker with the limits of `playback.*.maxSimultaneous` and `device.isLowEnd`.
    public init(config: ReelConfig) {
        self.init(
            maxSimultaneous: Dictionary(uniqueKeysWithValues: WidgetType.allCases.map { ($0, config.playback.maxSimultaneous(for: $0)) }),
            isLowEnd: config.device.isLowEnd
        )
    }

    /// Every violation in `facts`.
    public static func check(_ facts: some Sequence<PlayFact>, maxSimultaneous: [WidgetType: Int], isLowEnd: Bool) -> [PlayRuleViolation] {
        var checker = PlayRulesChecker(maxSimultaneous: maxSimultaneous, isLowEnd: isLowEnd)
        for fact in facts {
            checker.record(fact)
        }
        return checker.violations
    }

    /// Takes the next fact and returns the violations it causes (also added to `violations`).
    @discardableResult
    public mutating func record(_ fact: PlayFact) -> [PlayRuleViolation] {
        var found: [PlayRuleViolation] = []
        func report(_ kind: PlayRuleViolation.Kind, _ cards: [String], _ message: String) {
            found.append(PlayRuleViolation(kind: kind, time: fact.time, cards: cards.sorted(), message: message))
        }
        if let lastTime, fact.time < lastTime {
            report(.timeBackwards, [fact.card], "\(fact.kind.name) of \(fact.card) at \(JSONWriter.number(fact.time)) after a fact at \(JSONWriter.number(lastTime))")
        }
        lastTime = max(lastTime ?? fact.time, fact.time)
        let card = fact.card
        switch fact.kind {
        case .mount:
            mounted.insert(card)
            if isLowEnd, mounted.count > 1 {
                report(.lowEndPlayers, Array(mounted), "low-end device with \(mounted.count) players mounted: \(mounted.sorted().joined(separator: ", "))")
            }
        case .unmount:
            mounted.remove(card)
            playing[card] = nil
        case .playStart(let widget, let type, let userIntent):
            if !mounted.contains(card) {
                report(.startWithoutMount, [card], "\(card) started playing with no player mounted")
            }
            if playing[card] != nil {
                report(.startWhilePlaying, [card], "\(card) started playing while already playing")
            }
            if !userIntent {
                if isLowEnd {
                    report(.lowEndAutoplay, [card], "\(card) autoplayed on a low-end device")
                }
                if finished.contains(card) {
                    report(.autoplayAgain, [card], "\(card) autoplayed again after its play was over")
                }
            }
            playing[card] = Playing(widget: widget, type: type)
            let widgets = Set(playing.values.map(\.widget))
            if widgets.count > 1 {
                report(.twoWidgets, Array(playing.keys), "widgets \(widgets.sorted().joined(separator: ", ")) playing at once")
            }
            let mates = playing.filter { $0.value.widget == widget }.map(\.key)
            let limit = isLowEnd ? min(1, maxSimultaneous[type.ordinal]) : maxSimultaneous[type.ordinal]
            if mates.count > limit {
                report(.overLimit, mates, "\(mates.count) cards of \(type.rawValue) \(widget) playing, limit \(limit): \(mates.sorted().joined(separator: ", "))")
            }
        case .playStop(let reason):
            if playing.removeValue(forKey: card) == nil {
                report(.stopWithoutStart, [card], "\(card) stopped (\(reason.rawValue)) while not playing")
            }
            if reason.finishesPlay {
                finished.insert(card)
            }
        }
        violations.append(contentsOf: found)
        return found
    }
}
