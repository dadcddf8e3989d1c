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
    /// Stop after this much media, in seconds (nil: play to the end).
    public var maxMediaSeconds: Double?
    /// The play goes through an empty cache of its own (`reel play --cold`): its report says so.
    public var cold = false
    /// Describe the play's requests in CMCD (`network.cmcd.enabled`).
    public var cmcd = false
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
        cmcd = config.network.cmcd.enabled
    }
}

/// One decoded video frame's hash (`FrameMD5Format` writes them as ffmpeg's framemd5 lines).
public struct FrameHash: Sendable, Hashable {
    /// Frames before it.
    public var index: Int
    /// Its presentation time in the stream's time base (-1 when it has none).
    public var pts: Int64
    /// The same in seconds, nil when it has none.
    public var seconds: Double?
    public var md5: String
    /// Bytes of its planes packed with alignment 1: what ffmpeg's rawvideo packet of it holds.
    public var bytes: Int
    public var width: Int
    public var height: Int
    /// The frame's sample aspect ratio (0/1 when unknown).
    public var sampleAspect: Fraction
    /// The stream's facts ffmpeg's header and times need.
    public var stream: Stream

    /// A ratio of integers, as FFmpeg writes it ("1/24").
    public struct Fraction: Sendable, Hashable, CustomStringConvertible {
        public var num: Int
        public var den: Int
        public init(_ num: Int, _ den: Int) {
            self.num = num
            self.den = den
        }
        public var description: String { "\(num)/\(den)" }
    }

    /// The video stream: the frame rate ffmpeg assumes for it and when the input starts (nil
    /// when FFmpeg does not know: the first frame's time then).
    public struct Stream: Sendable, Hashable {
        public var frameRate: Fraction
        public var startSeconds: Double?
        public init(frameRate: Fraction, startSeconds: Double?) {
            self.frameRate = frameRate
            self.startSeconds = startSeconds
        }
    }
}

/// Where a play stands while it runs (`Playback.progress`), for a live progress line.
public struct PlaybackProgress: Sendable, Hashable {
    /// The first frame was handed over.
    public var started = false
    public var frames = 0
    /// Media shown so far, in seconds: the playhead.
    public var mediaSeconds = 0.0
    /// Shown frames per second of presentation, nil before two frames.
    public var fps: Double?
    /// Media decoded ahead of the display, in seconds.
    public var bufferedSeconds = 0.0
    /// Bytes the demuxer read (playlists, segments, keys).
    public var bytes: Int64 = 0
    /// Bits read per second of media decoded so far, in kbps; nil in the first half second.
    public var bitrateKbps: Int?

    public init() {}
}
