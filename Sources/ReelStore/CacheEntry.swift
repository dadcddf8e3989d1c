import ReelCore
import ReelManifest
/// One resource in the disk cache, as the index holds it: the key, the content file, how many
/// bytes it holds (all of the resource, or the first part of it), their checksum, and what the
/// LRU and the CDN-cost ledger need.
public struct CacheEntry: Sendable, Hashable {
    /// `DataSpec.cacheKey`: URL plus byte range.
    public var key: String
    /// The content file's name inside `data/` (a hash of the key and a generation; never the URL).
    public var file: String
    public var kind: ResourceKind
    /// Bytes in the content file.
    public var length: Int64
    /// The whole resource's length when known (equal to `length` for a complete entry).
    public var totalLength: Int64?
    /// False for a partial entry: the first `length` bytes of a download that stopped.
    public var isComplete: Bool
    /// XXH64 of the content file's bytes, checked on every read.
    public var checksum: UInt64
    /// A live playlist (no `EXT-X-ENDLIST`, not `VOD`; a dynamic MPD): refetched while online.
    public var isLive: Bool
    public var origin: CacheOrigin
    /// Playback has read this entry (always true for entries playback fetched).
    public var usedByPlayback: Bool
    /// The LRU clock value of the last access; the smallest is evicted first.
    public var lastAccess: Int64

    public init(key: String, file: String, kind: ResourceKind, length: Int64, totalLength: Int64?, isComplete: Bool,
                checksum: UInt64, isLive: Bool, origin: CacheOrigin, usedByPlayback: Bool, lastAccess: Int64) {
        self.key = key
        self.file = file
        self.kind = kind
        self.length = length
        self.totalLength = totalLength
        self.isComplete = isComplete
        self.checksum = checksum
        self.isLive = isLive
        self.origin = origin
        self.usedByPlayback = usedByPlayback
        self.lastAccess = lastAccess
    }
}
