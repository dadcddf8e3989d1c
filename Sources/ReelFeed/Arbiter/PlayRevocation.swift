import ReelCore
/// The end of a card's grant, which the feed session turns into `Player.pause`. Every grant is
/// closed by exactly one revocation, also when the video ended by itself.
public struct PlayRevocation: Sendable, Equatable {
    /// Seconds on the session's clock.
    public var time: Double
    public var card: PlayCard
    public var reason: PlayStopReason
    /// A user's action caused it: their pause, or their play of another card.
    public var userIntent: Bool

    public init(time: Double, card: PlayCard, reason: PlayStopReason, userIntent: Bool) {
        self.time = time
        self.card = card
        self.reason = reason
        self.userIntent = userIntent
    }
}
