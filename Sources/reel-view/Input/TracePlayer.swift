import Foundation
import ReelCore
import ReelEngine
import ReelFeed

/// Plays a scroll trace into the engine in place of the user, as `reel feed run` replays one:
/// each sample at its time on the engine's clock (its scroll, then its tap), from when the feed
/// shows. The screen draws where the trace has got to.
final class TracePlayer: Sendable {
    /// Where the trace has scrolled to: the vertical offset and every carousel's offset so far.
    struct Position: Sendable, Equatable {
        var y = 0.0
        var carousels: [String: Double] = [:]
        /// Samples played so far.
        var samples = 0
    }

    let trace: ScrollTrace
    let position = Locked(Position())
    private let task = Locked<Task<Void, Never>?>(nil)

    init(trace: ScrollTrace) {
        self.trace = trace
    }

    /// Starts playing into `engine` now.
    func start(into engine: FeedEngine) {
        let (trace, position) = (self.trace, self.position)
        task.withLock {
            $0 = Task {
                let clock = engine.clock
                let start = clock.now()
                for sample in trace.samples {
                    do { try await clock.sleep(until: start + sample.time) } catch { return }
                    engine.scroll(to: sample.y, carousels: sample.x)
                    if let tap = sample.tap { engine.tap(card: tap) }
                    position.withLock { now in
                        now.y = sample.y
                        for (id, x) in sample.x { now.carousels[id] = x }
                        now.samples += 1
                    }
                }
            }
        }
    }

    func stop() { task.withLock { $0?.cancel() } }
}
