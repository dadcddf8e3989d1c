import ReelCore
/// Decides which videos may play: an actor around `PlayPolicy` that applies card events one at a
/// time and hands back the grants and revocations for the players. Events carry their time, or
/// are stamped with the injected clock (seconds since the arbiter was made), so a manual clock
/// makes it deterministic.
public actor PlayArbiter {
    private var policy: PlayPolicy
    private let elapsed: @Sendable () -> Double

    public init(parameters: PlayParameters, clock: some Clock<Duration> = ContinuousClock()) {
        policy = PlayPolicy(parameters: parameters)
        let start = clock.now
        elapsed = { start.duration(to: clock.now).seconds }
    }

    public init(config: ReelConfig, clock: some Clock<Duration> = ContinuousClock()) {
        self.init(parameters: PlayParameters(config: config), clock: clock)
    }

    /// Applies an event at its own time.
    public func handle(_ event: PlayEvent) -> [PlayAction] {
        policy.handle(event)
    }

    /// Applies an event of `kind` for `card` at the clock's time.
    public func handle(_ kind: PlayEvent.Kind, _ card: PlayCard) -> [PlayAction] {
        policy.handle(PlayEvent(time: elapsed(), kind: kind, card: card))
    }

    /// Seconds on the arbiter's clock since it was made.
    public var now: Double { elapsed() }

    /// Known cards in feed order, with their standing.
    public var cards: [PlayPolicy.CardStatus] { policy.cards }

    /// Cards playing now, in feed order.
    public var playing: [PlayCard] { policy.playing }

    /// Cards that would autoplay if room came, in the order they would start.
    public var waiting: [PlayCard] { policy.waiting }

    public func hasWatched(_ cardID: String) -> Bool {
        policy.hasWatched(cardID)
    }
}
