import OrderedCollections
import ReelCore
import ReelFeed

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

    /// Prefetched bytes nobody read, by why: the user went past the card (`scrolledPast`), the
    /// prediction or the range moved away from it (`cancelled`), the cache evicted them
    /// (`evicted`), or the card was still wanted when the session ended (`sessionEnded`).
    public struct Waste: Sendable, Equatable, Codable, EmptyInitializable {
        public var scrolledPast: Int64 = 0
        public var cancelled: Int64 = 0
        public var evicted: Int64 = 0
        public var sessionEnded: Int64 = 0
        public init() {}
    }

    /// The prefetcher's ledger (bytes it fetched, playback used, and the rest, by why), and how
    /// far the played cards had been prepared.
    public struct Prefetch: Sendable, Equatable, Codable {
        public var fetchedBytes: Int64 = 0
        public var usedBytes: Int64 = 0
        public var wastedBytes: Int64 = 0
        @Defaulted public var waste = Waste()
        /// Plays whose card had its first media on disk (or a first frame held) when asked to
        /// play, over plays; nil without plays.
        public var hitRatio: Double?
        /// Plays by the stage their card had reached when asked to play.
        @Defaulted public var stageAtPlay = StageCounts()
        public init() {}
    }

    /// Plays by `PreloadStage`.
    public struct StageCounts: Sendable, Equatable, Codable, EmptyInitializable {
        public var none = 0
        public var manifest = 0
        public var media = 0
        public var firstFrame = 0
        public init() {}

        public subscript(stage: PreloadStage) -> Int {
            get {
                switch stage {
                case .none: none
                case .manifest: manifest
                case .media: media
                case .firstFrame: firstFrame
                }
            }
            set {
                switch stage {
                case .none: none = newValue
                case .manifest: manifest = newValue
                case .media: media = newValue
                case .firstFrame: firstFrame = newValue
                }
            }
        }

        public var total: Int { none + manifest + media + firstFrame }
    }

    /// One kind of play's time to first frame.
    public struct Starts: Sendable, Equatable, Codable, EmptyInitializable {
        /// Plays asked for.
        public var plays = 0
        /// From playStart to the first frame, over the plays that reached one.
        public var ttffMs = Percentiles()
        /// Of those, the share within 50 ms; nil when none reached a first frame.
        public var startedWithin50msRatio: Double?
        public init() {}
    }

    public struct Decoders: Sendable, Equatable, Codable {
        public var created = 0
        public var reused = 0
        public init() {}
    }

    /// The process's threads over the session, and what the session left running.
    public struct Threads: Sendable, Equatable, Codable {
        /// The most threads the process ran at once (sampled with the memory).
        public var peak = 0
        /// The session's player threads still running once it closed: 0 unless a player leaked.
        public var playersLeft = 0
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
    /// The session's first play's time to first frame (nothing could be ready for it); nil when
    /// it reached none.
    public var coldStartTTFFMs: Double?
    /// Every play but the session's first: what prefetch and preload are judged by.
    @Defaulted public var warm = Starts()
    /// Plays stopped before their first frame (the user moved on first).
    @Defaulted public var abandonedBeforeFirstFrame = 0
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
    /// Threads; nil in summaries written before they were counted (and in simulated ones).
    public var threads: Threads?
    /// True when the session was simulated in virtual time (`reel feed simulate`) instead of
    /// run by the real engine; nil in summaries written before simulations existed.
    public var simulated: Bool?
    /// Errors met (error events).
    public var errors = 0
    /// Catalog entries left out of the run, each named in a warning: those the catalog's parser
    /// refused (no URL, a bad ratio) and, for a feed run, those at its top whose entry point
    /// could not be read.
    @Defaulted public var skippedVideos = 0
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
