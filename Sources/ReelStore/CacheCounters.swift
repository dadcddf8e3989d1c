import ReelCore
/// Hit and miss counts over the cache's life, persisted in the index so `reel cache stats` can
/// report a hit ratio across runs. A hit is a read served wholly from a complete entry; a miss
/// is a read that needed the network (a shared transfer or a resumed partial counts as a miss).
public struct CacheCounters: Sendable, Hashable, Codable {
    public var hits: Int64 = 0
    public var misses: Int64 = 0
    /// Bytes readers got from the cache (whole hits, resumed partials, shared transfers).
    public var hitBytes: Int64 = 0
    /// Bytes readers got from the network.
    public var missBytes: Int64 = 0

    public init() {}

    /// Hits over all reads, or nil before the first read.
    public var hitRatio: Double? {
        hits + misses == 0 ? nil : Double(hits) / Double(hits + misses)
    }
}
