import ReelCore
import ReelStore

/// Follows the cache's events for a prefetcher's ledger: bytes prefetch stored, bytes playback
/// then read, prefetched entries evicted unread. Called on whatever thread the cache event comes
/// from (outside the cache's lock), so its state sits behind a `Locked`.
final class PrefetchLedgerRecorder: Sendable {
    private struct State {
        var fetchedBytes: Int64 = 0
        var usedBytes: Int64 = 0
        var evictedUnreadBytes: Int64 = 0
        /// Keys of the entries prefetch stored while this recorder listened, and whether
        /// playback has read them.
        var keys: [String: Bool] = [:]
        /// Unread prefetched partial entries just replaced by a newer version of the key: the
        /// next `stored` of the key says whether playback (it read them) or prefetch took over.
        var replaced: [String: Int64] = [:]
        /// The tag of the request that last fetched each key.
        var tags: [String: String] = [:]
    }

    private let state = Locked(State())

    func observe(_ event: CacheEvent) {
        state.withLock { state in
            switch event {
            case .stored(let key, let bytes, let origin, _):
                let replaced = state.replaced.removeValue(forKey: key)
                switch origin {
                case .prefetch:
                    state.fetchedBytes += bytes
                    state.keys[key] = false
                case .playback:
                    // Playback resumed an unread prefetched partial entry: it read those bytes.
                    if let replaced { state.usedBytes += replaced }
                    state.keys[key] = nil
                }
            case .prefetchUsed(let key, let bytes):
                guard state.keys[key] == false else { return }
                state.usedBytes += bytes
                state.keys[key] = true
            case .evicted(let key, let bytes, let origin, let usedByPlayback, let reason):
                guard origin == .prefetch, let used = state.keys[key] else { return }
                if reason == .replaced {
                    if !used && !usedByPlayback { state.replaced[key] = bytes }
                    return
                }
                state.keys[key] = nil
                if !used && !usedByPlayback { state.evictedUnreadBytes += bytes }
            case .waitingForSettle:
                return
            }
        }
    }

    /// A prefetch request tagged `tag` is fetching `key`.
    func claim(_ key: String, tag: String?) {
        guard let tag else { return }
        state.withLock { $0.tags[key] = tag }
    }

    /// The byte side of the ledger; `cache` tells how much of what was stored is still unread.
    func fill(_ ledger: inout PrefetchLedger, cache: Cache) {
        let (fetched, used, evicted, unreadKeys, tags) = state.withLock { state in
            (state.fetchedBytes, state.usedBytes, state.evictedUnreadBytes,
             state.keys.compactMap { $0.value ? nil : $0.key }, state.tags)
        }
        var unread: Int64 = 0
        var byTag: [String: Int64] = [:]
        for key in unreadKeys {
            if let entry = cache.peek(key), entry.origin == .prefetch, !entry.usedByPlayback {
                unread += entry.length
                if let tag = tags[key] { byTag[tag, default: 0] += entry.length }
            }
        }
        ledger.unreadBytesByTag = byTag
        ledger.fetchedBytes = fetched
        ledger.usedBytes = used
        ledger.evictedUnreadBytes = evicted
        ledger.unreadBytes = unread
        ledger.wastedBytes = evicted + unread
    }
}
