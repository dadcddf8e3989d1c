import ReelCore

/// What the decoder pool did so far: how each acquire was served, waits and preemptions, its
/// invariants, and the acquire latency (measured on the pool from the request to the grant).
public struct DecoderPoolStatistics: Sendable, Hashable, Codable {
    /// Acquires served by a new decoder (evictions included).
    public var created = 0
    /// Acquires served by a flushed decoder of the same format.
    public var reused = 0
    /// Acquires served by reopening a decoder for another bitstream format.
    public var reconfigured = 0
    /// Decoders shut down to make room for another kind.
    public var evicted = 0
    /// Acquires that had to wait for a release or a priority change.
    public var waits = 0
    /// Decoders taken back from a lower-priority holder.
    public var preemptions = 0
    /// Acquires that failed (a codec that would not open, a cancelled wait).
    public var failures = 0
    public var releases = 0
    /// Decoders alive now and at most; never above the capacity.
    public var live = 0
    public var maxLive = 0
    public var held = 0
    public var waiting = 0
    public var capacity = 0
    /// Grants of a decoder someone still held, or uses by a ticket the decoder was not granted
    /// to: always 0 unless the pool is broken.
    public var breaches = 0
    /// Acquire latency over every grant, and over grants of a matching idle decoder.
    public var acquireMs = Percentiles()
    public var idleMatchAcquireMs = Percentiles()

    public init() {}

    /// Grants of any kind.
    public var acquires: Int { created + reused + reconfigured }

    /// Share of grants served by reuse (1 when there was none).
    public var reuseRatio: Double { acquires == 0 ? 1 : Double(reused) / Double(acquires) }
}
