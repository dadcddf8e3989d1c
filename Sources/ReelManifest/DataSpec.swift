import Foundation
import ReelCore

/// What a resource is to playback; drives cache policy (live playlists are revalidated),
/// statistics and the TTFF phase a fetch counts toward.
public enum ResourceKind: String, Sendable, Hashable, CaseIterable, Codable {
    case playlist, initSection, segment, key, image, media
}

/// What to read: a URL, an optional byte range, and the key the cache files it under.
public struct DataSpec: Sendable, Hashable, CustomStringConvertible {
    public var url: URL
    /// First byte to read.
    public var offset: Int64
    /// Number of bytes to read, or nil to read to the end of the resource.
    public var length: Int64?
    public var kind: ResourceKind
    /// Identifies the bytes independently of the read position: URL plus the byte range the
    /// resource was asked for (a BYTERANGE sub-resource is its own entry).
    public var cacheKey: String
    /// The offset of the first byte `cacheKey` stands for: `offset` as first made, kept when the
    /// read position moves (`advanced(by:)`, a seek), so a cache can find the position inside
    /// its entry.
    public var cacheKeyOffset: Int64
    /// What the requester knows about the request, for CMCD (`network.cmcd.*`); not part of
    /// what the bytes are, so not of equality or the cache key.
    public var cmcd: CMCDHints?

    public init(url: URL, offset: Int64 = 0, length: Int64? = nil, kind: ResourceKind, cacheKey: String? = nil) {
        self.url = url
        self.offset = offset
        self.length = length
        self.kind = kind
        self.cacheKey = cacheKey ?? DataSpec.defaultCacheKey(url: url, offset: offset, length: length)
        self.cacheKeyOffset = offset
    }

    /// The URL without its fragment, plus `@offset-length` when a range is asked for.
    public static func defaultCacheKey(url: URL, offset: Int64, length: Int64?) -> String {
        var base = url.absoluteString
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        if offset == 0 && length == nil { return base }
        return "\(base)@\(offset)-\(length.map(String.init) ?? "")"
    }

    /// The same resource read from `delta` bytes further on (to resume a partial read).
    public func advanced(by delta: Int64) -> DataSpec {
        var next = self
        next.offset += delta
        if let length { next.length = length - delta }
        return next
    }

    public static func == (lhs: DataSpec, rhs: DataSpec) -> Bool {
        lhs.url == rhs.url && lhs.offset == rhs.offset && lhs.length == rhs.length && lhs.kind == rhs.kind
            && lhs.cacheKey == rhs.cacheKey && lhs.cacheKeyOffset == rhs.cacheKeyOffset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(offset)
        hasher.combine(length)
        hasher.combine(kind)
        hasher.combine(cacheKey)
    }

    /// The same request with `hints` for CMCD.
    public func with(_ hints: CMCDHints?) -> DataSpec {
        var spec = self
        spec.cmcd = hints
        return spec
    }

    public var description: String {
        if offset == 0 && length == nil { return url.absoluteString }
        return "\(url.absoluteString) [bytes \(offset)-\(length.map { String(offset + $0 - 1) } ?? "")]"
    }
}
