import ReelCore
/// A broken play rule found by `PlayRulesChecker`: what, when, and the cards involved.
public struct PlayRuleViolation: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Cards of two widgets playing at once.
        case twoWidgets
        /// More cards of one widget playing than its type's limit (low-end: more than one).
        case overLimit
        /// A card autoplaying again after its play ended or reached its preview limit.
        case autoplayAgain
        /// Low-end: a play that no user asked for.
        case lowEndAutoplay
        /// Low-end: two players mounted at once.
        case lowEndPlayers
        /// A play started on a card with no player mounted.
        case startWithoutMount
        /// A play started on a card already playing.
        case startWhilePlaying
        /// A play stopped on a card that was not playing.
        case stopWithoutStart
        /// A fact earlier than the one before it.
        case timeBackwards
    }

    public var kind: Kind
    /// Seconds on the session's clock: the time of the fact that broke the rule.
    public var time: Double
    /// The cards involved, in id order.
    public var cards: [String]
    /// One line for people.
    public var message: String

    public init(kind: Kind, time: Double, cards: [String], message: String) {
        self.kind = kind
        self.time = time
        self.cards = cards
        self.message = message
    }

    public var description: String {
        "t=\(JSONWriter.number(time)) \(kind.rawValue): \(message)"
    }
}
