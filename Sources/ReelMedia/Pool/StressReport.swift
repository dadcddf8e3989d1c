import ReelCore

/// What `reel stress` measured, in the shape `--json` prints.
public struct StressReport: Sendable, Codable {
    public var widgets: Int
    public var poolSize: Int
    public var seconds: Double
    public var seed: UInt64
    /// Share of decoder grants served by a flushed decoder of the same format.
    public var reuseRatio: Double
    /// The same over the acquires of the second half (after warm-up, when the pool is full).
    public var reuseRatioAfterWarmUp: Double
    /// Players that failed (bad input, network, decoding).
    public var errors: Int
    /// The first few failures, "card: message".
    public var errorMessages: [String]
    public var acquires: Int
    /// Acquire latency over every grant (waits included), in milliseconds.
    public var acquireMs: Percentiles
    /// Acquire latency of grants a matching idle decoder served at once.
    public var idleMatchAcquireMs: Percentiles
    public var decoders: Decoders
    public var waits: Int
    public var preemptions: Int
    /// Video frames decoded and handed to renderers.
    public var frames: Int
    public var cards: Cards
    /// Time to first frame from the play request, over players that showed one.
    public var ttffMs: Percentiles
    /// Frames that reached a renderer after their due time, and times a player ran dry.
    public var stalls: Int
    public var rebuffers: Int
    public var rss: RSS
    /// Broken invariants (more decoders than the pool size, two holders of one decoder, a
    /// decoder still held after every card unmounted); empty when all held.
    public var invariantBreaches: [String]
    /// RSS grew past the bound after warm-up.
    public var leak: Bool
    public var passed: Bool

    public struct Decoders: Sendable, Codable {
        public var created: Int
        public var reused: Int
        public var reconfigured: Int
        public var evicted: Int
        /// Decoders alive at once, at most.
        public var maxLive: Int
    }

    public struct Cards: Sendable, Codable {
        public var mounts: Int
        public var plays: Int
        public var pauses: Int
        public var unmounts: Int
        /// Players that played their video to the end.
        public var ended: Int
    }

    /// Resident memory in MB, sampled four times a second: before the first card; at the middle
    /// (the end of warm-up) and at the end (before the last cards unmount), each the median of
    /// the samples of 10% of the run; the peak; the most the end may be; the lowest and highest
    /// sample and the least-squares trend (MB per minute) over the second half.
    public struct RSS: Sendable, Codable {
        public var startMB: Double
        public var midMB: Double
        public var endMB: Double
        public var peakMB: Double
        public var limitMB: Double
        public var afterWarmUpMinMB: Double
        public var afterWarmUpMaxMB: Double
        public var trendMBPerMinute: Double
    }
}
