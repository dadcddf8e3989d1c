import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// What an input's media is, as ffprobe tells it: the video's codec with its profile and level,
/// pixel format, size, frame rate and key frame interval; the audio's codec, sample rate and
/// channels. `reel inspect --probe` prints it.
public struct MediaFacts: Sendable, Codable, Hashable {
    public struct Video: Sendable, Codable, Hashable {
        public var codec: String
        /// "High", "Main", ... (`avcodec_profile_name`), nil when the codec has none.
        public var profile: String?
        /// The codec's level as FFmpeg holds it (H.264: 31 for 3.1), nil when unknown.
        public var level: Int?
        /// "yuv420p" (`av_get_pix_fmt_name`), nil when unknown.
        public var pixelFormat: String?
        public var width: Int
        public var height: Int
        /// The average frame rate as a fraction ("30/1", "30000/1001") and per second.
        public var frameRate: String?
        public var fps: Double?
        /// Seconds and frames between key frames, measured over the packets read (the median).
        public var keyFrameIntervalSeconds: Double?
        public var keyFrameIntervalFrames: Int?
    }

    public struct Audio: Sendable, Codable, Hashable {
        public var codec: String
        public var profile: String?
        public var sampleRate: Int
        public var channels: Int
        /// "mono", "stereo", "5.1" (`av_channel_layout_describe`).
        public var channelLayout: String?
    }

    /// The demuxer FFmpeg read it with ("hls", "mov,mp4,m4a,3gp,3g2,mj2", "mpegts").
    public var container: String
    /// Seconds of media FFmpeg reports, nil when it cannot tell.
    public var durationSeconds: Double?
    public var video: Video?
    public var audio: Audio?
    /// Key frames seen while measuring, and the media seconds read.
    public var keyFramesSeen: Int
    public var secondsRead: Double
}

/// Probes an input as ffprobe does (open, `avformat_find_stream_info`, then packets for up to
/// `maxSeconds` of video or four key frames) through Reel's data sources. Blocking: call it on
/// a thread of its own.
public enum MediaProbe {
    public static func probe(_ request: PlaybackRequest, factory: any DataSourceFactory, maxSeconds: Double = 12) throws -> MediaFacts {
        // FFmpeg's own messages go to Reel's log (`reel.ffmpeg`), not straight to stderr.
        try FFmpegLog().capture { try measure(request, factory: factory, maxSeconds: maxSeconds) }
    }

    private static func measure(_ request: PlaybackRequest, factory: any DataSourceFactory, maxSeconds: Double) throws -> MediaFacts {
        var demux = request.demux
        demux.findStreamInfo = true
        demux.probeSizeBytes = max(demux.probeSizeBytes, 5_000_000)
        demux.analyzeDurationMs = max(demux.analyzeDurationMs, 5_000)
        let opener = MediaOpener(factory: factory, cancellation: Cancellation(), log: RequestLog(), constraints: request.constraints,
                                 manifestLimits: request.manifestLimits, demux: demux, includeAudio: true,
                                 failureBudget: request.failureBudget)
        var timeline = TTFFTimeline()
        let media = try opener.open(request.input, timeline: &timeline)
        defer { media.input.close() }
        let input = media.input
        var facts = MediaFacts(container: input.formatName ?? "?", durationSeconds: input.durationSeconds, video: nil, audio: nil,
                               keyFramesSeen: 0, secondsRead: 0)
        facts.video = videoFacts(media.video, input: input)
        if let audio = media.audio { facts.audio = audioFacts(audio) }

        // The key frame interval: the distance between key frames over the first packets.
        var keyTimes: [Double] = []
        var first: Double?, last: Double?
        let packet = Packet()
        reading: while true {
            let result = try input.read(into: packet)
            switch result {
            case .endOfStream: break reading
            case .failed: continue
            case .packet: break
            }
            defer { packet.unref() }
            guard packet.streamIndex == media.video.index, let seconds = packet.seconds(in: media.video.timeBase) else { continue }
            first = min(first ?? seconds, seconds)
            last = max(last ?? seconds, seconds)
            if packet.isKeyFrame, keyTimes.last.map({ seconds > $0 }) ?? true { keyTimes.append(seconds) }
            if keyTimes.count >= 4 || seconds - (first ?? seconds) >= maxSeconds { break }
        }
        facts.keyFramesSeen = keyTimes.count
        facts.secondsRead = max(0, (last ?? 0) - (first ?? 0))
        let gaps = zip(keyTimes.dropFirst(), keyTimes).map { $0 - $1 }.sorted()
        if !gaps.isEmpty {
            let median = gaps[gaps.count / 2]
            facts.video?.keyFrameIntervalSeconds = (median * 1000).rounded() / 1000
            if let fps = facts.video?.fps { facts.video?.keyFrameIntervalFrames = Int((median * fps).rounded()) }
        }
        return facts
    }

    private static func videoFacts(_ stream: MediaInput.Stream, input: MediaInput) -> MediaFacts.Video {
        let parameters = stream.codecParameters.pointee
        let rate = input.averageFrameRate(stream.index)
        return MediaFacts.Video(
            codec: stream.format.codec, profile: profileName(parameters), level: parameters.level > 0 ? Int(parameters.level) : nil,
            pixelFormat: av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) },
            width: Int(parameters.width), height: Int(parameters.height),
            frameRate: rate.map { "\($0.num)/\($0.den)" }, fps: rate.map { (Double($0.num) / Double($0.den) * 1000).rounded() / 1000 },
            keyFrameIntervalSeconds: nil, keyFrameIntervalFrames: nil)
    }

    private static func audioFacts(_ stream: MediaInput.Stream) -> MediaFacts.Audio {
        var parameters = stream.codecParameters.pointee
        var layout = [CChar](repeating: 0, count: 64)
        let described = av_channel_layout_describe(&parameters.ch_layout, &layout, layout.count)
        return MediaFacts.Audio(
            codec: stream.format.codec, profile: profileName(parameters), sampleRate: Int(parameters.sample_rate),
            channels: Int(parameters.ch_layout.nb_channels),
            channelLayout: described > 0 ? String(decoding: layout.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil)
    }

    /// The profile's name. The corresponding C function is `avcodec_profile_name`.
    private static func profileName(_ parameters: AVCodecParameters) -> String? {
        guard parameters.profile >= 0 else { return nil }
        return avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) }
    }
}
