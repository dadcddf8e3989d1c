import Foundation
import ReelCore

/// The media initialization section a segment needs before its own bytes (HLS `EXT-X-MAP`,
/// DASH `Initialization` / `SegmentTemplate@initialization`).
public struct InitSection: Sendable, Hashable {
    /// The URI as written in the manifest (after DASH template substitution).
    public var uri: String
    /// `uri` resolved against the manifest or BaseURL.
    public var resolvedURL: URL
    public var byteRange: ByteRange?
    /// The HLS key in effect where the `EXT-X-MAP` tag appeared (it encrypts the section too).
    /// Without an explicit IV, FFmpeg uses the sequence number of the segment after the tag.
    public var key: Key?

    public init(uri: String, resolvedURL: URL, byteRange: ByteRange? = nil, key: Key? = nil) {
        self.uri = uri
        self.resolvedURL = resolvedURL
        self.byteRange = byteRange
        self.key = key
    }

    /// What to fetch: the URL and its byte range, filed in the cache as an init section.
    public var dataSpec: DataSpec {
        DataSpec(url: resolvedURL, offset: byteRange?.offset ?? 0, length: byteRange?.length, kind: .initSection)
    }
}
