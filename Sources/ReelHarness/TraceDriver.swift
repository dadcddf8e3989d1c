import ReelCore
import ReelEngine
import ReelFeed

/// Replays a recorded scroll trace into a `FeedEngine` on the engine's clock, as a user would
/// have scrolled: the launch window first when there is one, then each sample at its time (its
/// scroll, then its tap), then the longest hold of a fast scroll after the last one, and closes.
/// Cancelling the task that runs it ends the replay where it is (Ctrl-C on a run): the engine
/// closes at once and the outcome is of what ran.
enum TraceDriver {
    /// Runs `trace` (its times from when the feed shows, `launchSeconds` after the start).
    static func run(_ trace: ScrollTrace, into engine: FeedEngine, launchSeconds: Double, visibility: VisibilityParameters) async -> SessionOutcome {
        let clock = engine.clock
        if launchSeconds > 0 {
            engine.send(.launch, at: 0)
            try? await clock.sleep(until: launchSeconds)
        }
        guard !Task.isCancelled else { return await engine.close() }
        engine.send(.show, at: launchSeconds)
        for sample in trace.samples {
            let time = launchSeconds + sample.time
            try? await clock.sleep(until: time)
            guard !Task.isCancelled else { return await engine.close() }
            engine.send(.scroll(y: sample.y, carousels: sample.x, line: sample.line), at: time)
            if let tap = sample.tap { engine.send(.tap(card: tap, line: sample.line), at: time) }
        }
        let end = launchSeconds + (trace.samples.last?.time ?? 0) + max(visibility.settle, visibility.maxDelay)
        try? await clock.sleep(until: end)
        guard !Task.isCancelled else { return await engine.close() }
        engine.send(.wake, at: end)
        return await engine.close()
    }
}
