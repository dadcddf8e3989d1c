import Foundation
import ReelCore

/// What `reel inspect` shows about a manifest: its type, its variants and its renditions with
/// every segment. Encodes exactly the documented JSON shape, absent values as JSON `null`.
///
/// `variants`: a master's `EXT-X-STREAM-INF` entries; for DASH, the video representations
/// (`uri` is the Representation id, `resolvedURI` its BaseURL, `audioGroup` null); empty for a
/// media playlist. `renditions`: the media playlist itself; a master's deep-loaded playlists
/// (empty unless deep-loaded); every DASH representation. A key's `iv` is the IV in use: the
/// written one or the one derived from the segment's sequence number.
public struct ManifestReport: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable {
        case hlsMaster = "hls-master"
        case hlsMedia = "hls-media"
        case dash
    }

    public struct VariantEntry: Codable, Sendable, Hashable {
        public var uri: String
        public var resolvedURI: String
        public var bandwidth: Int
        public var width: Int?
        public var height: Int?
        public var codecs: String?
        public var audioGroup: String?
    }

    public struct RenditionEntry: Codable, Sendable, Hashable {
        public var id: String
        /// `video`, `audio` or `text`.
        public var type: String
        public var resolvedURI: String
        public var segments: [SegmentEntry]
    }

    public struct SegmentEntry: Codable, Sendable, Hashable {
        public var uri: String
        public var resolvedURI: String
        public var duration: Double
        public var byteRange: ByteRange?
        public var key: KeyEntry?
        public var map: MapEntry?
        public var discontinuity: Bool
    }

    public struct KeyEntry: Codable, Sendable, Hashable {
        public var method: String
        public var uri: String
        /// `0x` + 32 hex digits.
        public var iv: String?
    }

    public struct MapEntry: Codable, Sendable, Hashable {
        public var uri: String
        public var resolvedURI: String
        public var byteRange: ByteRange?
    }

    public var type: Kind
    public var variants: [VariantEntry]
    public var renditions: [RenditionEntry]

    public init(type: Kind, variants: [VariantEntry], renditions: [RenditionEntry]) {
        self.type = type
        self.variants = variants
        self.renditions = renditions
    }

    public init(_ manifest: Manifest) {
        type = Kind(manifest)
        variants = Self.variantEntries(manifest)
        renditions = manifest.renditions.map { rendition in
            RenditionEntry(
                id: rendition.id, type: rendition.type.rawValue, resolvedURI: rendition.url.absoluteString,
                segments: rendition.segments.map(Self.entry))
        }
    }

    static func variantEntries(_ manifest: Manifest) -> [VariantEntry] {
        manifest.variants.map { variant in
            VariantEntry(
                uri: variant.uri, resolvedURI: variant.resolvedURL.absoluteString, bandwidth: variant.bandwidth,
                width: variant.resolution?.width, height: variant.resolution?.height, codecs: variant.codecs,
                audioGroup: variant.audioGroup)
        }
    }

    static func entry(_ segment: Segment) -> SegmentEntry {
        SegmentEntry(
            uri: segment.uri, resolvedURI: segment.resolvedString, duration: segment.duration,
            byteRange: segment.byteRange,
            key: segment.key.map {
                KeyEntry(method: $0.method, uri: $0.uri, iv: segment.initializationVector.map(Key.hexString))
            },
            map: segment.initSection.map {
                MapEntry(uri: $0.uri, resolvedURI: $0.resolvedURL.absoluteString, byteRange: $0.byteRange)
            },
            discontinuity: segment.discontinuity)
    }

    /// The report as JSON (sorted keys, so the output is stable).
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        try ReportJSON.data(self, compact: !prettyPrinted)
    }

    /// A compact table for people: one line per variant, one per rendition (`ManifestSummary`).
    public var text: String { ManifestSummary(self).text }
}

extension ManifestReport.Kind {
    init(_ manifest: Manifest) {
        switch manifest {
        case .master: self = .hlsMaster
        case .media: self = .hlsMedia
        case .dash: self = .dash
        }
    }
}
