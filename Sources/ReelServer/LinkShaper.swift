/// Paces body bytes over one client's link, the way a phone's last mile does: every connection
/// of the client reserves its chunks on the same link, one after another, so together they never
/// pass its bandwidth, whether that is fixed or follows a trace (a chunk that spans a step is
/// sent at each step's rate in turn). No burst is saved up while idle: a body of B bytes never
/// arrives sooner than B / rate. Time is passed in, so tests drive it directly.
struct LinkShaper: Sendable {
    /// When the link has sent everything reserved so far (nanoseconds, the callers' clock).
    private(set) var busyUntil: UInt64 = 0

    /// Reserves `byteCount` bytes at `now` on a link following `profile` since `epoch` (both in
    /// nanoseconds on one monotonic clock) and returns how many nanoseconds to wait before
    /// sending them: until the link has carried them after what it carries already.
    mutating func take(_ byteCount: Int, profile: NetworkProfile, epoch: UInt64, now: UInt64) -> UInt64 {
        var time = max(now, busyUntil, epoch)
        var remaining = Double(max(0, byteCount))
        // Each pass ends the reservation or moves to the next step; a trace's steps are finite
        // and one of them carries bytes, so this ends; the bound only guards against a bug.
        for _ in 0..<1_000_000 where remaining > 0 {
            let (rate, until) = profile.rate(at: Double(time - epoch) / 1e9)
            guard let rate else { break }
            let stepEnd = until.map { max(time + 1, epoch + UInt64(($0 * 1e9).rounded(.up))) }
            let needed = remaining / rate * 1e9
            if let stepEnd, rate == 0 || Double(stepEnd - time) < needed {
                remaining -= Double(stepEnd - time) * rate / 1e9
                time = stepEnd
                continue
            }
            guard rate > 0 else { return .max }
            time += UInt64(needed.rounded(.up))
            remaining = 0
        }
        busyUntil = time
        return time - now
    }
}
