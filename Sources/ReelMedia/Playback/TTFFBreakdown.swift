/// Time to first frame and its phases, in milliseconds. The phases are consecutive and add up to
/// `totalMs` (give or take bookkeeping): from the play request, before any I/O, to the first
/// decoded video frame handed to the renderer.
public struct TTFFBreakdown: Sendable, Hashable, Codable {
    /// Fetching and parsing playlists, choosing the variant (for a plain media file: opening it
    /// and reading its first bytes).
    public var manifestMs: Double = 0
    /// `avformat_open_input`: the demuxer reads the playlist and opens the first segment.
    public var openMs: Double = 0
    /// `avformat_find_stream_info` (0 when skipped).
    public var probeMs: Double = 0
    /// `avcodec_open2` for the video decoder (and audio, when present).
    public var codecOpenMs: Double = 0
    /// From the decoder being open to the first video frame out of it.
    public var firstFrameMs: Double = 0
    public var totalMs: Double = 0

    public init(manifestMs: Double = 0, openMs: Double = 0, probeMs: Double = 0, codecOpenMs: Double = 0,
                firstFrameMs: Double = 0, totalMs: Double = 0) {
        self.manifestMs = manifestMs
        self.openMs = openMs
        self.probeMs = probeMs
        self.codecOpenMs = codecOpenMs
        self.firstFrameMs = firstFrameMs
        self.totalMs = totalMs
    }
}

extension TTFFBreakdown {
    private enum Keys: String, CodingKey { case manifestMs, openMs, probeMs, codecOpenMs, firstFrameMs, totalMs }

    /// A phase a file leaves out reads as 0 (events files written before a phase existed).
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        manifestMs = try container.decodeIfPresent(Double.self, forKey: .manifestMs) ?? 0
        openMs = try container.decodeIfPresent(Double.self, forKey: .openMs) ?? 0
        probeMs = try container.decodeIfPresent(Double.self, forKey: .probeMs) ?? 0
        codecOpenMs = try container.decodeIfPresent(Double.self, forKey: .codecOpenMs) ?? 0
        firstFrameMs = try container.decodeIfPresent(Double.self, forKey: .firstFrameMs) ?? 0
        totalMs = try container.decodeIfPresent(Double.self, forKey: .totalMs) ?? 0
    }
}
