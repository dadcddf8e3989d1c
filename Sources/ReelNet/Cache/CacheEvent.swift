import ReelStore
/// What happened to an entry, for observers such as a CDN-cost ledger that counts bytes
/// fetched, used and wasted (evicted before playback read them). Delivered synchronously on the
/// thread that caused it, outside the cache's lock; keep handlers short.
public enum CacheEvent: Sendable, Hashable {
    /// An entry was written (complete or partial) with `bytes` fetched from the network.
    case stored(key: String, bytes: Int64, origin: CacheOrigin, complete: Bool)
    /// Playback read, for the first time, bytes that prefetch had fetched.
    case prefetchUsed(key: String, bytes: Int64)
    /// An entry left the cache: LRU pressure, a failed checksum, `clear` or `verify --repair`, or
    /// its index row could not be written (a full disk: `unindexed`, the file is dropped).
    case evicted(key: String, bytes: Int64, origin: CacheOrigin, usedByPlayback: Bool, reason: EvictionReason)
    /// A reader found the key's transfer closing (its only reader cancelled, or winding up) and
    /// waits for it to be settled, then resumes what it kept, rather than follow it.
    case waitingForSettle(key: String)

    public enum EvictionReason: String, Sendable, Hashable {
        case capacity, corrupt, replaced, cleared, unindexed
    }
}
