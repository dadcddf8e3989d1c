import OrderedCollections
import ReelCore

/// What a feed session cost and how it felt, as `reel feed run --json` prints it: the Swift
/// shape is the JSON shape (`JSONValueEncoder` writes it, `JSONValueDecoder` reads it).
public struct SessionSummary: Sendable, Equatable, Codable {
    public struct Stalls: Sendable, Equatable, Codable {
        public var count = 0
        public var totalMs = 0.0
        public init() {}
    }

    /// From the CDN simulator's bill.
    public struct CDN: Sendable, Equatable, Codable {
        public var requests = 0
        public var bytes: Int64 = 0
        public init() {}
    }

    /// The prefetcher's ledger: bytes it fetched, playback used, and ones evicted unread.
    public struct Prefetch: Sendable, Equatable, Codable {
        public var fetchedBytes: Int64 = 0
        public var usedBytes: Int64 = 0
        public var wastedBytes: Int64 = 0
        public init() {}
    }

    public struct Decoders: Sendable, Equatable, Codable {
        public var created = 0
        public var reused = 0
        public init() {}
    }

    /// The bandwidth meter at the session's end.
    public struct Bandwidth: Sendable, Equatable, Codable {
        public var estimateKbps = 0
        /// Transfer samples it took.
        public var samples = 0
        public init() {}
    }

    /// What adaptive bitrate did over the plays of videos with a variant choice (masters and
    /// MPDs; `SessionSummary+ABR`): the media time played from each variant, its mean bitrate,
    /// and the switches.
    public struct ABR: Sendable, Equatable, Codable {
        /// Media time played from one variant (named by its media playlist URL).
        public struct VariantShare: Sendable, Equatable, Codable {
            public var variant: String
            public var kbps: Int
            public var seconds: Double
            /// Of all media played from variants.
            public var share: Double
        }

        /// Plays of videos with a variant choice.
        public var plays = 0
        /// Media seconds those plays showed.
        public var playedSeconds = 0.0
        /// The variants' peak bitrates weighted by the media time played from each; nil when
        /// nothing was played.
        public var meanPlayedKbps: Double?
        public var switchesUp = 0
        public var switchesDown = 0
        public var variants: [VariantShare] = []
        public init() {}
    }

    /// Plays started (playStart events).
    public var plays = 0
    /// From playStart to the first frame.
    public var ttffMs = Percentiles()
    /// Plays whose first frame came within 50 ms of playStart, over plays that reached one; nil
    /// when none did.
    public var startedWithin50msRatio: Double?
    public var stalls = Stalls()
    /// Video frames decoded by every player.
    public var frames = 0
    public var cdn = CDN()
    /// Bytes the played videos' players read (from the network or the cache).
    public var bytesPlayed: Int64 = 0
    /// Bytes read from the cache over all bytes read (playback, prefetch and thumbnails).
    public var cacheHitRatio = 0.0
    public var prefetch = Prefetch()
    public var decoders = Decoders()
    public var peakRSSMB = 0.0
    /// Errors met (error events).
    public var errors = 0
    /// The bandwidth meter at the end; nil in summaries written before it was measured.
    public var bandwidth: Bandwidth?
    /// Adaptive bitrate over the plays; nil in summaries written before it was measured.
    public var abr: ABR?

    public init() {}

    /// The summary as JSON (every key, null for a figure with no value).
    public var json: JSONValue {
        // Encoding plain numbers and strings into a JSONValue cannot fail.
        (try? JSONValue(encoding: self)) ?? .null
    }

    /// `b / a` for every number of two summaries, keyed like the summary ("ttffMs.p50"); a
    /// ratio over zero, or with a figure missing (null) on either side, is null.
    public static func ratios(_ a: SessionSummary, _ b: SessionSummary) -> JSONValue {
        var out: OrderedDictionary<String, JSONValue> = [:]
        func walk(_ lhs: JSONValue, _ rhs: JSONValue, path: String) {
            switch (lhs, rhs) {
            case (.object(let l), .object(let r)):
                for (key, value) in l { if let other = r[key] { walk(value, other, path: path.isEmpty ? key : "\(path).\(key)") } }
            default:
                guard let x = lhs.number, let y = rhs.number else {
                    if lhs == .null || rhs == .null { out[path] = .null }
                    return
                }
                out[path] = x == 0 ? .null : .double(y / x)
            }
        }
        walk(a.json, b.json, path: "")
        return .object(out)
    }
}
