import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// What to play and how: the input, pacing, how many frames, decoder threads, probe settings,
/// and the optional per-frame hashes and first-frame thumbnail.
public struct PlaybackRequest: Sendable {
    public var input: URL
    public var mode: HeadlessRenderer.Mode = .realTime
    /// Stop after this many video frames (nil: play to the end).
    public var maxFrames: Int?
    /// Decoder threads (0: FFmpeg picks).
    public var threads: Int = 1
    public var demux = DemuxOptions()
    /// Hash every decoded video frame (the `ffmpeg -f framemd5` hash).
    public var frameHashes = false
    /// Write the first frame here as PNG.
    public var thumbnailPath: String?
    /// Decode the audio stream too, when there is one.
    public var decodeAudio = true
    /// What the device can show and afford: picks the variant (shared with prefetch).
    public var constraints = PlaybackConstraints()
    /// How long the play goes on while its fetches fail (`network.*`).
    public var failureBudget = FailureBudget(NetworkOptions())
    /// What the input's manifest may make the parsers build (`manifest.*`).
    public var manifestLimits = ManifestLimits.default
    /// Media decoded ahead of the display in real time (`playback.maxBufferMs`): the buffer that
    /// rides out a slow segment, and what the adaptive rule sees ahead of the playhead.
    public var readAhead: Duration = .seconds(3)

    public init(input: URL) { self.input = input }

    /// A request for `input` as the configuration describes it: decoder threads and demuxer
    /// options (`decoder.*`), the variant's constraints (`device.*`, `abr.*`), the failure budget
    /// (`network.*`), the manifest's limits (`manifest.*`) and the read-ahead (`playback.*`).
    public init(input: URL, config: ReelConfig) {
        self.input = input
        threads = config.decoder.threads
        demux = DemuxOptions(config.decoder)
        constraints = PlaybackConstraints(config)
        failureBudget = FailureBudget(NetworkOptions(config.network))
        manifestLimits = ManifestLimits(config.manifest)
        readAhead = .milliseconds(config.playback.maxBufferMs)
    }
}

/// One decoded video frame's hash line: `<index>, <pts>, <md5>` with pts in the stream's time base.
public struct FrameHash: Sendable, Hashable {
    public var index: Int
    public var pts: Int64
    public var md5: String
}
