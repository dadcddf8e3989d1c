import Foundation

/// One media segment: where its bytes are, how long it plays, and what it needs first
/// (init section, key).
public struct Segment: Sendable, Hashable {
    /// The URI as written in the playlist (after DASH template substitution).
    public var uri: String
    /// `uri` resolved against the playlist URL or the DASH BaseURL chain.
    public var resolvedURL: URL
    /// Seconds of media (HLS `EXTINF`, DASH duration / timescale).
    public var duration: Double
    public var byteRange: ByteRange?
    public var key: Key?
    public var initSection: InitSection?
    /// True when an `EXT-X-DISCONTINUITY` precedes the segment, or it starts a DASH period
    /// after the first.
    public var discontinuity: Bool
    /// The wall-clock date of the segment's first sample: from `EXT-X-PROGRAM-DATE-TIME`, or
    /// derived from the nearest tagged segment and the durations in between.
    public var programDateTime: Date?
    /// The media sequence number (HLS) or the position in the rendition from 0 (DASH).
    public var sequenceNumber: Int64

    public init(
        uri: String, resolvedURL: URL, duration: Double, byteRange: ByteRange? = nil, key: Key? = nil,
        initSection: InitSection? = nil, discontinuity: Bool = false, programDateTime: Date? = nil,
        sequenceNumber: Int64 = 0
    ) {
        self.uri = uri
        self.resolvedURL = resolvedURL
        self.duration = duration
        self.byteRange = byteRange
        self.key = key
        self.initSection = initSection
        self.discontinuity = discontinuity
        self.programDateTime = programDateTime
        self.sequenceNumber = sequenceNumber
    }

    /// What to fetch: the URL and its byte range, filed in the cache as a segment.
    public var dataSpec: DataSpec {
        DataSpec(url: resolvedURL, offset: byteRange?.offset ?? 0, length: byteRange?.length, kind: .segment)
    }

    /// The IV that decrypts this segment: the key's explicit IV or the sequence number.
    public var initializationVector: Data? {
        key?.initializationVector(sequenceNumber: sequenceNumber)
    }
}
