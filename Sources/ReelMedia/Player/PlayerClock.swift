/// Any `Clock` seen as offsets from when the player was made, for timers that must run on an
/// injected clock (ReelCore's `ManualClock` in tests): now, and an async sleep until an offset.
struct PlayerClock: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }
}
