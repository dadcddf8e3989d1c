import Foundation

/// Where the launch controller reads the wall-clock time: the system's clock, or one that moves
/// only when told (tests, `reel launch simulate`, whose time comes from its events).
public struct LaunchClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's wall clock.
    public static let system = LaunchClock { Date() }

    /// `epoch` plus the time `clock` has moved since this was made: with a `ManualClock`, time
    /// moves only when the test advances it.
    public static func following<C: Clock<Duration>>(_ clock: C, from epoch: Date) -> LaunchClock {
        let start = clock.now
        return LaunchClock {
            let (seconds, attoseconds) = start.duration(to: clock.now).components
            return epoch.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}
