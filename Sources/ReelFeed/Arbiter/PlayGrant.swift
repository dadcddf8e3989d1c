import ReelCore
/// Permission for a card to play, which the feed session turns into `Player.play`.
public struct PlayGrant: Sendable, Equatable {
    /// Seconds on the session's clock.
    public var time: Double
    public var card: PlayCard
    /// A user's play (a tap) rather than autoplay.
    public var userIntent: Bool
    /// Media seconds from the video's start after which the player reports `previewElapsed`;
    /// nil plays the whole video (a user's play, or a category whose preview is 0).
    public var previewSeconds: Double?
    /// The video had played to its end: start again from the beginning instead of resuming.
    public var fromStart: Bool

    public init(time: Double, card: PlayCard, userIntent: Bool, previewSeconds: Double? = nil, fromStart: Bool = false) {
        self.time = time
        self.card = card
        self.userIntent = userIntent
        self.previewSeconds = previewSeconds
        self.fromStart = fromStart
    }
}
