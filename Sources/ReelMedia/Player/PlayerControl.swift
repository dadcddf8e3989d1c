import ReelCore

/// What a player's owner asked for (prepare, play, pause, stop), written by the owner's calls on
/// any thread and read by the player's driver and by its blocking demux and decode loops between
/// packets, so a pause or stop takes effect at once instead of queueing behind a loop.
final class PlayerControl: Sendable {
    struct State: Sendable {
        /// Prepare or play was asked for: open the input and take a decoder.
        var started = false
        var wantsPlay = false
        var stopped = false
        /// Where TTFF starts: the request of the play the first frame answers (the latest change
        /// from paused to playing), not an earlier play paused before any frame showed.
        var playRequest: ContinuousClock.Instant?
        /// Play requests so far: a play and a pause that both come while the driver waits leave
        /// `wantsPlay` as it was, and this is how the driver still sees them.
        var plays = 0
    }

    private let state = Locked(State())
    private let signal: AsyncStream<Void>.Continuation
    /// Yields after every change; the driver's only stream (it looks at `current` each time).
    let changes: AsyncStream<Void>

    init() {
        (changes, signal) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    var current: State { state.withLock { $0 } }

    var shouldDecode: Bool { state.withLock { $0.wantsPlay && !$0.stopped } }

    var isStopped: Bool { state.withLock { $0.stopped } }

    func prepare() {
        update { $0.started = true }
    }

    /// False when the player was stopped already. `now` is the request's instant (tests pass one).
    @discardableResult
    func play(at now: ContinuousClock.Instant = .now) -> Bool {
        update { state in
            guard !state.stopped else { return false }
            state.started = true
            if !state.wantsPlay { state.playRequest = now }
            state.wantsPlay = true
            state.plays += 1
            return true
        }
    }

    func pause() {
        update { $0.wantsPlay = false }
    }

    func stop() {
        update { state in
            state.stopped = true
            state.wantsPlay = false
        }
        signal.finish()
    }

    @discardableResult
    private func update<T>(_ change: (inout State) -> T) -> T {
        let result = state.withLock { change(&$0) }
        signal.yield()
        return result
    }
}
