/// Turns the metered transfers of one transfer engine into bandwidth samples, as Media3's
/// `DefaultBandwidthMeter` does: time counts while at least one metered transfer is under way
/// (from its response's first byte: the latency before it is estimated apart; a transfer paused
/// by its reader's back-pressure is not under way), bytes are those they received, and each transfer
/// that stops or pauses closes a sample over everything since the previous one. Concurrent
/// transfers sharing a link thus measure the link, not their share of it. Pure; the transfer
/// thread drives it, with times on any clock (durations since an origin).
struct ThroughputSampler: Sendable {
    private var active = 0
    private var sampleStart: Duration?
    private var sampleBytes: Int64 = 0
    /// When the last sample closed: a sample never reaches back before it.
    private var lastEnd: Duration?

    /// A metered transfer's body began (or resumed) at `now`, which may be a moment ago (its first
    /// byte, noticed when its data is handled).
    mutating func began(at now: Duration) {
        if active == 0 { sampleStart = max(now, lastEnd ?? now) }
        active += 1
    }

    /// Bytes arrived for a metered transfer under way.
    mutating func received(_ count: Int) {
        sampleBytes += Int64(count)
    }

    /// A metered transfer stopped (ended, failed, cancelled or paused) at `now`: the sample since
    /// the previous one, when it holds bytes and time.
    mutating func ended(at now: Duration) -> (bytes: Int64, elapsed: Duration)? {
        guard active > 0, let start = sampleStart else { return nil }
        active -= 1
        let sample = (bytes: sampleBytes, elapsed: now - start)
        sampleBytes = 0
        sampleStart = active > 0 ? now : nil
        lastEnd = now
        return sample.bytes > 0 && sample.elapsed > .zero ? sample : nil
    }
}
