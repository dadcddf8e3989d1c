import Foundation
import ReelCore

/// The display clock the renderer paces frames on. Times are offsets from the clock's origin.
/// `sleep(until:)` blocks the calling (renderer) thread; tests pass a manual clock.
public protocol FrameClock: Sendable {
    func now() -> Duration
    func sleep(until deadline: Duration)
}

/// Real time: the monotonic clock, with blocking sleeps on the renderer's own thread.
public struct MonotonicFrameClock: FrameClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Duration { ContinuousClock.now - origin }

    public func sleep(until deadline: Duration) {
        let remaining = deadline - now()
        guard remaining > .zero else { return }
        let (seconds, attoseconds) = remaining.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
    }
}

/// A clock that moves only when told; `sleep(until:)` jumps to the deadline. For tests.
public final class ManualFrameClock: FrameClock {
    private let current = Locked(Duration.zero)

    public init() {}

    public func now() -> Duration { current.withLock { $0 } }

    public func sleep(until deadline: Duration) {
        current.withLock { $0 = max($0, deadline) }
    }

    public func advance(by delta: Duration) {
        current.withLock { $0 += delta }
    }
}
