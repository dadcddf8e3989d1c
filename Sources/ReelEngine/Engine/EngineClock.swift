import ReelCore

/// The engine's time: seconds since it was made on any `Clock` with `Duration` (continuous for an
/// app, a manual clock in tests), and sleeping until such a time.
public struct EngineClock: Sendable {
    /// Seconds since the clock was made.
    public let now: @Sendable () -> Double
    private let sleeper: @Sendable (Double) async throws -> Void

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now).seconds }
        sleeper = { seconds in
            try await clock.sleep(until: start.advanced(by: .nanoseconds(Int64((seconds * 1e9).rounded()))), tolerance: nil)
        }
    }

    /// The continuous clock.
    public static var continuous: EngineClock { EngineClock(ContinuousClock()) }

    /// Sleeps until `seconds` since the clock was made (at once when that has passed).
    public func sleep(until seconds: Double) async throws {
        try await sleeper(seconds)
    }
}
