/// Paces body bytes to a bandwidth: a token bucket that may go into debt, so a write of `n`
/// bytes waits until the bucket has refilled them. Time is passed in, so tests drive it directly.
struct TokenBucket: Sendable {
    /// Bytes the bucket may save up while idle. Zero (the server's choice) means no burst: a body
    /// of B bytes never arrives sooner than B / rate, even on a connection that sat idle.
    var capacity: Double
    private var tokens: Double = 0
    private var lastRefill: UInt64?

    init(capacity: Double = 0) {
        self.capacity = capacity
    }

    /// Takes `byteCount` tokens at `now` (nanoseconds on any monotonic clock) and returns how many
    /// nanoseconds to wait before sending them at `bytesPerSecond`.
    mutating func take(_ byteCount: Int, bytesPerSecond: Double, now: UInt64) -> UInt64 {
        precondition(bytesPerSecond > 0, "a token bucket needs a positive rate")
        if let lastRefill, now > lastRefill {
            let earned = Double(now - lastRefill) * bytesPerSecond / 1e9
            tokens = min(capacity, tokens + earned)
        }
        lastRefill = max(now, lastRefill ?? now)
        tokens -= Double(byteCount)
        guard tokens < 0 else { return 0 }
        return UInt64((-tokens / bytesPerSecond * 1e9).rounded(.up))
    }
}
