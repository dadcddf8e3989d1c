import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// Everything one playback measured, in the shape `reel play --json` prints.
public struct PlaybackReport: Sendable, Codable {
    public var url: String
    /// The chosen variant's media playlist URL, or nil when there was no choice.
    public var variant: String?
    /// The chosen DASH representation's id, or nil.
    public var rendition: String?
    public var ttffMs: Double
    public var phases: Phases
    public var network: Network
    public var video: Video
    public var audio: Audio?
    /// Non-fatal problems met on the way (a segment that failed to load, corrupt data).
    public var errors: [String]
    public var wallMs: Double
    /// What adaptive bitrate did (the estimate, the start variant, each segment's variant, the
    /// switches), for a master or an MPD; nil for a media playlist or file.
    public var abr: ABRReport?
    /// The bandwidth meter after the play, or nil without one.
    public var bandwidth: BandwidthEstimate?
    /// Why the play could not be completed (media no variant could give, the failure budget ran
    /// out), or nil when it played to its end or to `maxFrames`: `reel play` prints the report,
    /// then this error, and exits non-zero.
    public var failure: Failure? = nil
    /// Where the start's bytes came from: the disk cache (warm), the network (cold), both, or
    /// local files.
    public var start: Start = .cold
    /// The play was stopped early (Ctrl-C): the report is of what played until then.
    public var interrupted = false

    /// Where the bytes the start needed (the playlists and the first media) came from, the way
    /// people speak of a start: `cold` from the network (an empty cache, or `--cold`), `warm`
    /// from the disk cache, `mixed` some of each, `local` a local file.
    public enum Start: String, Sendable, Codable {
        case cold, warm, mixed, local

        /// Judged from the play's requests: the playlists and init sections up to the first
        /// segment (or media file), and that segment.
        public init(_ requests: [TransferMetrics], input: URL, cold: Bool) {
            if input.isFileURL {
                self = .local
                return
            }
            var start: [TransferMetrics] = []
            for request in requests {
                start.append(request)
                if request.kind == .segment || request.kind == .media { break }
            }
            let hits = start.filter(\.cacheHit).count
            if cold || hits == 0 {
                self = .cold
            } else {
                self = hits == start.count ? .warm : .mixed
            }
        }
    }

    /// A play that ended short: the `ReelError` code (`notFound`, `connectionFailed`, ...) and
    /// the message naming the input and the cause.
    public struct Failure: Sendable, Codable {
        public var code: String
        public var message: String

        public init(_ error: ReelError) {
            code = error.code.rawValue
            message = error.description
        }

        public var error: ReelError { ReelError(ReelError.Code(rawValue: code) ?? .networkFailed, message) }
    }

    public struct Phases: Sendable, Codable {
        public var manifestMs, openMs, probeMs, codecOpenMs, firstFrameMs: Double
    }

    public struct Network: Sendable, Codable {
        public var requests: Int
        public var bytes: Int64
        public var cacheHitBytes: Int64
        public var firstRequest: FirstRequest?
        public var perRequest: [Request]
    }

    public struct FirstRequest: Sendable, Codable {
        public var url: String
        public var dnsMs, connectMs, tlsMs, firstByteMs, totalMs: Double
        public var reusedConnection: Bool
    }

    public struct Request: Sendable, Codable {
        public var url: String
        public var kind: String
        public var bytes: Int64
        public var cacheHit: Bool
        public var status: Int
        public var totalMs: Double
        /// The request went over a pooled connection instead of a new connect.
        public var reusedConnection: Bool
    }

    public struct Video: Sendable, Codable {
        public var codec: String
        public var width: Int
        public var height: Int
        public var frames: Int
        /// Playback frames per second: shown per second of presentation (`--fast` judges the
        /// media's own timeline, so this is the rate it would play at).
        public var fps: Double
        /// With `--fast`: decoded frames per second of wall time (how fast it went); nil in real time.
        public var decodeFps: Double?
        public var decodeMs: Percentiles
        public var late: Int
        public var dropped: Int
        public var stalls: Int
        public var stallMs: Double
        public var resolutionChanges: Int
        public var corruptPackets: Int
        public var decodeErrors: Int
        /// Seconds of media decoded (from the first frame's time to the last's).
        public var mediaSeconds: Double
        /// Seconds of media shown: the playhead when the play ended (less than `mediaSeconds`
        /// when it was stopped with decoded frames still queued).
        public var shownSeconds: Double
    }

    public struct Audio: Sendable, Codable {
        public var codec: String
        public var frames: Int
    }
}
