import ReelCore
/// Something the play arbiter is told about one card: a visibility change, the player's report
/// (ended, preview elapsed) or the user's tap.
public struct PlayEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Visible enough to play: a soft ask, granted when the rules allow, else the card waits.
        case ready
        /// Leaving: keeps playing, but hands play over to a waiting card if there is one.
        case softRelease
        /// Below the pause threshold: stop playing, stay mounted.
        case paused
        /// Its player is detached: stop, and forget it except whether it was watched.
        case unmounted
        /// The player reached the end of the video.
        case ended
        /// The player reached the grant's `previewSeconds`.
        case previewElapsed
        /// The user tapped play.
        case userPlay
        /// The user tapped pause.
        case userPause

        /// The event a visibility transition's target state stands for; nil for `prefetch` and
        /// `mounted`, which the arbiter does not act on. `active` is `ready` with the arbiter's
        /// grant (`ready -> active` echoes a grant; `softRelease -> active` is a playing card back
        /// above its soft-release threshold), so both map to `ready`, which the arbiter takes as
        /// often as it comes. `idle` after a mount (a widget removed) counts as `unmounted`.
        public init?(visibilityTarget state: VisibilityState) {
            switch state {
            case .ready, .active: self = .ready
            case .softRelease: self = .softRelease
            case .paused: self = .paused
            case .unmounted, .idle: self = .unmounted
            case .prefetch, .mounted: return nil
            }
        }
    }

    /// Seconds on the session's clock.
    public var time: Double
    public var kind: Kind
    public var card: PlayCard

    public init(time: Double, kind: Kind, card: PlayCard) {
        self.time = time
        self.kind = kind
        self.card = card
    }

    /// The event a visibility transition stands for (see `Kind.init(visibilityTarget:)`); nil
    /// when the arbiter has nothing to do with it or the widget has no type.
    public init?(_ transition: VisibilityTransition) {
        guard let kind = Kind(visibilityTarget: transition.to), let card = PlayCard(transition) else { return nil }
        self.init(time: transition.time, kind: kind, card: card)
    }
}
