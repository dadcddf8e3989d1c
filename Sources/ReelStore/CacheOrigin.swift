import ReelCore
/// Who fetched a cached resource: playback (a player reading it) or prefetch (warming ahead).
/// A CDN-cost ledger compares the two: bytes prefetch fetched that playback never read are waste.
public enum CacheOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    case playback, prefetch
}
