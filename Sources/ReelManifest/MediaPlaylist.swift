import Foundation
import ReelCore

/// A list of segments to play in order: an HLS media playlist, or the segments of one DASH
/// representation across all periods (then `mediaSequence` is 0 and `endList` means static).
public struct MediaPlaylist: Sendable, Hashable {
    /// `EXT-X-PLAYLIST-TYPE`.
    public enum PlaylistType: String, Sendable, Hashable, Codable {
        case vod = "VOD"
        case event = "EVENT"
    }

    /// `EXT-X-START`: where playback should begin.
    public struct StartOffset: Sendable, Hashable {
        /// Seconds from the start (negative: from the end of the playlist).
        public var timeOffset: Double
        public var precise: Bool

        public init(timeOffset: Double, precise: Bool = false) {
            self.timeOffset = timeOffset
            self.precise = precise
        }
    }

    /// Where the playlist was loaded from; relative URIs were resolved against it.
    public var url: URL
    public var version: Int?
    /// Seconds; when the tag is missing or malformed it is derived from the longest segment.
    public var targetDuration: Int
    public var mediaSequence: Int64
    public var discontinuitySequence: Int64
    public var endList: Bool
    public var playlistType: PlaylistType?
    public var start: StartOffset?
    public var iFramesOnly: Bool
    public var independentSegments: Bool
    /// `EXT-X-PART-INF:PART-TARGET` of a low-latency playlist (parts themselves are not kept).
    public var partTargetDuration: Double?
    /// `EXT-X-SKIP:SKIPPED-SEGMENTS` of a delta update: segments omitted before the first one.
    public var skippedSegments: Int
    public var segments: [Segment]
    /// What the parser recovered from.
    public var warnings: [ManifestWarning]

    public init(
        url: URL, version: Int? = nil, targetDuration: Int = 0, mediaSequence: Int64 = 0,
        discontinuitySequence: Int64 = 0, endList: Bool = false, playlistType: PlaylistType? = nil,
        start: StartOffset? = nil, iFramesOnly: Bool = false, independentSegments: Bool = false,
        partTargetDuration: Double? = nil, skippedSegments: Int = 0, segments: [Segment] = [],
        warnings: [ManifestWarning] = []
    ) {
        self.url = url
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.endList = endList
        self.playlistType = playlistType
        self.start = start
        self.iFramesOnly = iFramesOnly
        self.independentSegments = independentSegments
        self.partTargetDuration = partTargetDuration
        self.skippedSegments = skippedSegments
        self.segments = segments
        self.warnings = warnings
    }

    /// True while the playlist can still grow: no `EXT-X-ENDLIST` and not `VOD`.
    public var isLive: Bool { !endList && playlistType != .vod }

    /// Sum of the segment durations, in seconds.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The DataSpec to reload this playlist (kind `.playlist`).
    public var dataSpec: DataSpec { DataSpec(url: url, kind: .playlist) }
}
