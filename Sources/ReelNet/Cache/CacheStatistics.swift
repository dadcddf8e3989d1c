import ReelStore
/// What the cache holds and how it has served, for `reel cache stats` and reports.
public struct CacheStatistics: Sendable, Hashable, Codable {
    public var directory: String
    public var maxBytes: Int64
    public var entries: Int
    /// Bytes of content files.
    public var bytes: Int64
    /// Bytes of the index (database, WAL and shared-memory files); counted against `maxBytes`.
    public var indexBytes: Int64
    public var partialEntries: Int
    public var liveEntries: Int
    /// Bytes prefetch fetched that playback has not read (yet).
    public var prefetchUnreadBytes: Int64
    public var counters: CacheCounters
    /// False when the cache could not be used; `disabledReason` says why.
    public var enabled: Bool
    public var disabledReason: String?
    /// Why the cache was opened read-only (a full disk, a read-only folder), or nil.
    public var readOnlyReason: String?
}

/// What `Cache.verify` found: every entry's file re-read and its length and checksum checked.
public struct CacheVerifyReport: Sendable, Hashable, Codable {
    public struct BadEntry: Sendable, Hashable, Codable {
        public var key: String
        public var file: String
        public var reason: String
    }

    public var directory: String
    public var checked: Int
    public var bytes: Int64
    public var bad: [BadEntry]
    /// Content files no index row names (left by a crash between rename and row).
    public var orphanFiles: Int
    /// Entries and orphan files removed (with `repair`).
    public var removed: Int
    public var repaired: Bool

    /// True when nothing bad remains.
    public var isClean: Bool { (bad.isEmpty && orphanFiles == 0) || repaired }
}

/// Where a key stands: for a prefetcher deciding whether to fetch ("cached or in flight").
public enum CacheStatus: Sendable, Hashable {
    case absent
    /// The first `bytes` of the resource are cached.
    case partial(bytes: Int64)
    case complete(bytes: Int64)
    /// A transfer is filling it right now.
    case inFlight(origin: CacheOrigin)
}
