import ReelCore

/// How much of one manifest the parsers build before refusing it (the `manifest.*` keys), handed
/// to them by value so that every caller, playback, prefetch and `reel inspect`, parses under the
/// limits its configuration sets. Each limit is checked before memory is spent on what it counts.
public struct ManifestLimits: Sendable, Hashable {
    /// Largest body parsed, in bytes (`manifest.maxPlaylistBytes`).
    public var maxPlaylistBytes: Int
    /// Segments of one rendition (`manifest.maxSegments`).
    public var maxSegments: Int
    /// Segments of every representation of one MPD together (`manifest.maxTotalSegments`).
    public var maxTotalSegments: Int
    /// Periods of one MPD (`manifest.maxPeriods`).
    public var maxPeriods: Int
    /// Repeats of one `SegmentTimeline` entry (`manifest.maxTimelineRepeat`).
    public var maxTimelineRepeat: Int
    /// Elements of one MPD (`manifest.maxXMLElements`).
    public var maxXMLElements: Int

    /// The limits `manifest.*` sets; the defaults without an argument.
    public init(_ settings: ManifestSettings = ManifestSettings()) {
        maxPlaylistBytes = settings.maxPlaylistBytes
        maxSegments = settings.maxSegments
        maxTotalSegments = settings.maxTotalSegments
        maxPeriods = settings.maxPeriods
        maxTimelineRepeat = settings.maxTimelineRepeat
        maxXMLElements = settings.maxXMLElements
    }

    /// The built-in defaults.
    public static let `default` = ManifestLimits()
}
