import ReelCore
/// Why a card stopped playing: carried by the arbiter's revocations and by `playStop` facts.
public enum PlayStopReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// The card scrolled below its pause threshold.
    case paused
    /// The card's player was detached (it left the screen or the widget went away).
    case unmounted
    /// The video played to its end: the card counts as watched.
    case ended
    /// The video reached its category's preview limit: the card counts as watched.
    case preview
    /// The user paused it.
    case userPaused
    /// It was leaving (`softRelease`) and handed play over to a waiting card.
    case yielded
    /// A user's play elsewhere took its place.
    case preempted
    /// The link cannot carry it with the cards of its widget playing before it
    /// (`FeedInput.linkCarries`): it plays again when the link can.
    case narrowed

    /// Whether the card's one play is over: it never autoplays again in the session.
    public var finishesPlay: Bool {
        self == .ended || self == .preview
    }
}
