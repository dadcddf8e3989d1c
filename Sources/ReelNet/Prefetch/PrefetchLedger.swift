/// The CDN-cost ledger of one `Prefetcher`: what it was asked to do, what it did, and what the
/// bytes it fetched became. Byte counts come from the cache's origin tags and events, so they
/// follow every prefetch-tagged entry whoever reads it later; see docs/prefetch.md.
public struct PrefetchLedger: Sendable, Hashable, Codable {
    /// Requests accepted into the queue.
    public var queued = 0
    /// Job runs started (a request suspended or retried starts again and counts again).
    public var started = 0
    public var completed = 0
    public var cancelled = 0
    /// Requests dropped after failing (retries spent, or refused at once).
    public var failed = 0
    /// Runs stopped to make room (a higher category, a starving player) and queued again.
    public var suspended = 0
    /// Failed runs queued again.
    public var retried = 0
    /// Bytes prefetch transfers fetched from the network into the cache (partial ones included).
    public var fetchedBytes: Int64 = 0
    /// Bytes of prefetched entries that playback read afterwards.
    public var usedBytes: Int64 = 0
    /// Bytes of prefetched entries evicted before playback read them.
    public var evictedUnreadBytes: Int64 = 0
    /// Bytes of prefetched entries still cached that playback has not read (yet).
    public var unreadBytes: Int64 = 0
    /// Of `unreadBytes`, those each request tag fetched last (untagged requests are left out).
    public var unreadBytesByTag: [String: Int64] = [:]
    /// `evictedUnreadBytes + unreadBytes`: what prefetch cost that playback did not use. At the
    /// end of a session every unread byte is waste; during one, some may still be played.
    public var wastedBytes: Int64 = 0

    public init() {}
}
