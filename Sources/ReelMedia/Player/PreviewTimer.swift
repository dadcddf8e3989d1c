import ReelCore

/// Counts how long a video has been playing (from its first frame, pauses excluded) on the
/// player's clock, and calls `onElapsed` once when that reaches the preview limit given at play.
final class PreviewTimer: Sendable {
    private struct State {
        var limit: Duration?
        var watched: Duration = .zero
        /// Start of the current playing period, on the clock.
        var since: Duration?
        var firstFrameShown = false
        var playing = false
        var fired = false
        var generation = 0
        var task: Task<Void, Never>?
    }

    private let clock: PlayerClock
    private let state = Locked(State())
    private let handler = Locked<@Sendable (Duration) -> Void>({ _ in })

    init(clock: PlayerClock) {
        self.clock = clock
    }

    /// Sets what runs when the limit is reached.
    func onElapsed(_ body: @escaping @Sendable (Duration) -> Void) {
        handler.withLock { $0 = body }
    }

    /// Time played so far.
    var watched: Duration {
        let now = clock.now()
        return state.withLock { $0.watched + ($0.since.map { now - $0 } ?? .zero) }
    }

    var hasFired: Bool { state.withLock { $0.fired } }

    /// Play was asked for; `limit` replaces the preview limit when given.
    func play(limit: Duration?) {
        let now = clock.now()
        state.withLock { state in
            if let limit { state.limit = limit }
            state.playing = true
            if state.firstFrameShown && state.since == nil { start(&state, at: now) }
        }
    }

    /// The first frame was shown: the first playing period starts.
    func firstFrame() {
        let now = clock.now()
        state.withLock { state in
            state.firstFrameShown = true
            if state.playing && state.since == nil { start(&state, at: now) }
        }
    }

    /// Playing stopped (a pause, the end, a stop).
    func pause() {
        let now = clock.now()
        let task = state.withLock { state -> Task<Void, Never>? in
            state.playing = false
            if let since = state.since {
                state.watched += now - since
                state.since = nil
            }
            state.generation += 1
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }

    private func start(_ state: inout State, at now: Duration) {
        state.since = now
        guard let limit = state.limit, limit > .zero, !state.fired else { return }
        state.generation += 1
        let generation = state.generation
        let deadline = now + (limit - state.watched)
        let clock = self.clock
        state.task = Task { [weak self] in
            try? await clock.sleep(deadline)
            self?.deadlineReached(generation)
        }
    }

    private func deadlineReached(_ generation: Int) {
        let now = clock.now()
        let watched = state.withLock { state -> Duration? in
            guard generation == state.generation, state.playing, !state.fired, let since = state.since,
                  let limit = state.limit, state.watched + (now - since) >= limit else { return nil }
            state.fired = true
            return state.watched + (now - since)
        }
        if let watched { handler.withLock { $0 }(watched) }
    }
}
