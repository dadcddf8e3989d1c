import Foundation
import ReelCore

/// One media segment: where its bytes are, how long it plays, and what it needs first
/// (init section, key).
///
/// Stored compactly, since a long VOD playlist holds a hundred thousand of them: the location is
/// kept as the playlist's shared directory plus the name when that is all the URI is (a
/// Foundation `URL` costs about 400 bytes; `resolvedURL` builds one when asked), and the key and
/// init section sit in one box that consecutive segments share.
public struct Segment: Sendable {
    /// The URI as written in the playlist (after DASH template substitution).
    public var uri: String
    /// Seconds of media (HLS `EXTINF`, DASH duration / timescale).
    public var duration: Double
    public var byteRange: ByteRange?
    /// True when an `EXT-X-DISCONTINUITY` precedes the segment, or it starts a DASH period
    /// after the first.
    public var discontinuity: Bool
    /// The wall-clock date of the segment's first sample: from `EXT-X-PROGRAM-DATE-TIME`, or
    /// derived from the nearest tagged segment and the durations in between.
    public var programDateTime: Date?
    /// The media sequence number (HLS) or the position in the rendition from 0 (DASH).
    public var sequenceNumber: Int64
    var location: SegmentLocation
    var context: SegmentContext

    public init(
        uri: String, resolvedURL: URL, duration: Double, byteRange: ByteRange? = nil, key: Key? = nil,
        initSection: InitSection? = nil, discontinuity: Bool = false, programDateTime: Date? = nil,
        sequenceNumber: Int64 = 0
    ) {
        self.init(
            uri: uri, location: .url(resolvedURL), duration: duration, byteRange: byteRange,
            context: SegmentContext(key: key, initSection: initSection), discontinuity: discontinuity,
            programDateTime: programDateTime, sequenceNumber: sequenceNumber)
    }

    /// The parsers' initializer: a location from `URLResolver.location` and a shared context.
    init(
        uri: String, location: SegmentLocation, duration: Double, byteRange: ByteRange? = nil,
        context: SegmentContext, discontinuity: Bool = false, programDateTime: Date? = nil, sequenceNumber: Int64 = 0
    ) {
        self.uri = uri
        self.location = location
        self.duration = duration
        self.byteRange = byteRange
        self.context = context
        self.discontinuity = discontinuity
        self.programDateTime = programDateTime
        self.sequenceNumber = sequenceNumber
    }

    /// `uri` resolved against the playlist URL or the DASH BaseURL chain.
    public var resolvedURL: URL {
        get { location.url }
        set { location = .url(newValue) }
    }

    /// `resolvedURL.absoluteString`, without building the URL when the location is a name in
    /// the playlist's directory.
    public var resolvedString: String { location.absoluteString }

    public var key: Key? {
        get { context.key }
        set { context = SegmentContext(key: newValue, initSection: context.initSection) }
    }

    public var initSection: InitSection? {
        get { context.initSection }
        set { context = SegmentContext(key: context.key, initSection: newValue) }
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

extension Segment: Hashable {
    public static func == (lhs: Segment, rhs: Segment) -> Bool {
        lhs.uri == rhs.uri && lhs.duration == rhs.duration && lhs.byteRange == rhs.byteRange
            && lhs.discontinuity == rhs.discontinuity && lhs.programDateTime == rhs.programDateTime
            && lhs.sequenceNumber == rhs.sequenceNumber && lhs.location == rhs.location
            && (lhs.context === rhs.context
                || (lhs.context.key == rhs.context.key && lhs.context.initSection == rhs.context.initSection))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(duration)
        hasher.combine(byteRange)
        hasher.combine(sequenceNumber)
    }
}
