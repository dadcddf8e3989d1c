import ReelCore
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

    private enum CodingKeys: String, CodingKey {
        case url, variant, rendition, ttffMs, phases, network, video, audio, errors, wallMs
    }

    /// Writes absent values as explicit JSON nulls: scripts see every key, always.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(variant, forKey: .variant)
        try container.encode(rendition, forKey: .rendition)
        try container.encode(ttffMs, forKey: .ttffMs)
        try container.encode(phases, forKey: .phases)
        try container.encode(network, forKey: .network)
        try container.encode(video, forKey: .video)
        try container.encode(audio, forKey: .audio)
        try container.encode(errors, forKey: .errors)
        try container.encode(wallMs, forKey: .wallMs)
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

        private enum CodingKeys: String, CodingKey { case requests, bytes, cacheHitBytes, firstRequest, perRequest }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(requests, forKey: .requests)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(cacheHitBytes, forKey: .cacheHitBytes)
            try container.encode(firstRequest, forKey: .firstRequest)
            try container.encode(perRequest, forKey: .perRequest)
        }
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
        public var fps: Double
        public var decodeMs: Percentiles
        public var late: Int
        public var dropped: Int
        public var stalls: Int
        public var stallMs: Double
        public var resolutionChanges: Int
        public var corruptPackets: Int
        public var decodeErrors: Int
        public var mediaSeconds: Double
    }

    public struct Audio: Sendable, Codable {
        public var codec: String
        public var frames: Int
    }

    public struct Percentiles: Sendable, Codable {
        public var p50, p95, max: Double

        public init(_ distribution: Distribution) {
            p50 = distribution.p50
            p95 = distribution.p95
            max = distribution.max
        }
    }
}
