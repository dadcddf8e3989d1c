/// Paces body bytes over one client's link, the way a phone's last mile does: every connection
/// of the client reserves its chunks on the same link, one after another, so together they never
/// pass its bandwidth, whether that is fixed or follows a trace (a chunk that spans steps is sent
/// at each step's rate in turn). No burst is saved up while idle: a body of B bytes never
/// arrives sooner than B / rate. Time is passed in, so tests drive it directly; the cost of a
/// reservation does not grow with the trace's steps (`LinkSchedule`).
struct LinkShaper: Sendable {
    /// When the link has sent everything reserved so far (nanoseconds, the callers' clock).
    private(set) var busyUntil: UInt64 = 0

    /// Reserves `byteCount` bytes at `now` on a link following `schedule` since `epoch` (both in
    /// nanoseconds on one monotonic clock) and returns how many nanoseconds to wait before
    /// sending them: until the link has carried them after what it carries already.
    mutating func take(_ byteCount: Int, schedule: LinkSchedule, epoch: UInt64, now: UInt64) -> UInt64 {
        let start = max(now, busyUntil, epoch)
        guard !schedule.isUnlimited else {
            busyUntil = start
            return start - now
        }
        let end = schedule.finish(byteCount, from: start - epoch).map { epoch.addingReportingOverflow($0) }
        busyUntil = end.map { $0.overflow ? .max : $0.partialValue } ?? .max
        return busyUntil - now
    }

    /// The same for a profile, indexed for this one reservation (tests).
    mutating func take(_ byteCount: Int, profile: NetworkProfile, epoch: UInt64, now: UInt64) -> UInt64 {
        take(byteCount, schedule: LinkSchedule(profile), epoch: epoch, now: now)
    }
}
