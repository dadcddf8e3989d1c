/// `manifest.*`: how much of a playlist or MPD Reel reads before refusing it, so that a broken or
/// hostile manifest costs bounded time and memory (docs/manifest-policy.md, "Limits").
public struct ManifestSettings: ConfigSection {
    @Setting("Largest playlist or MPD body read, in bytes; a larger one is refused before parsing.", .range(1024...1_073_741_824))
    public var maxPlaylistBytes = 32 * 1024 * 1024

    @Setting("Segments of one rendition at most (an HLS playlist's URI lines, or a DASH representation over all periods); more is refused before they are built.", .range(1...50_000_000))
    public var maxSegments = 100_000

    @Setting("Segments of all the representations of one DASH MPD together at most.", .range(1...50_000_000))
    public var maxTotalSegments = 300_000

    @Setting("Periods of one DASH MPD at most.", .range(1...1_000_000))
    public var maxPeriods = 1_000

    @Setting("Repeats of one DASH SegmentTimeline entry at most (S@r, or what S@r=-1 expands to).", .range(0...50_000_000))
    public var maxTimelineRepeat = 100_000

    @Setting("Elements of one DASH MPD at most (every S and SegmentURL is one); counted before the MPD is parsed.", .range(1...50_000_000))
    public var maxXMLElements = 500_000

    public init() {}
}
