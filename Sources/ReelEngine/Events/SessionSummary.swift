import OrderedCollections
import ReelCore

/// What a feed session cost and how it felt, as `reel feed run --json` prints it.
public struct SessionSummary: Sendable, Equatable {
    /// Percentiles of a distribution; nil when it had no samples (no play reached a first frame),
    /// which JSON writes as null rather than a 0 that reads as "instant".
    public struct Percentiles: Sendable, Equatable {
        public var p50: Double?
        public var p95: Double?
        public var max: Double?
        public init() {}
        public init(_ distribution: Distribution) {
            guard !distribution.isEmpty else { return }
            p50 = distribution.p50
            p95 = distribution.p95
            max = distribution.max
        }
    }

    /// Plays started (playStart events).
    public var plays = 0
    /// From playStart to the first frame.
    public var ttffMs = Percentiles()
    /// Plays whose first frame came within 50 ms of playStart, over plays that reached one; nil
    /// when none did.
    public var startedWithin50msRatio: Double?
    public var stallCount = 0
    public var stallTotalMs = 0.0
    /// Video frames decoded by every player.
    public var frames = 0
    /// From the CDN simulator's bill.
    public var cdnRequests = 0
    public var cdnBytes: Int64 = 0
    /// Bytes the played videos' players read (from the network or the cache).
    public var bytesPlayed: Int64 = 0
    /// Bytes read from the cache over all bytes read (playback, prefetch and thumbnails).
    public var cacheHitRatio = 0.0
    public var prefetchFetchedBytes: Int64 = 0
    public var prefetchUsedBytes: Int64 = 0
    public var prefetchWastedBytes: Int64 = 0
    public var decodersCreated = 0
    public var decodersReused = 0
    public var peakRSSMB = 0.0
    /// Errors met (error events).
    public var errors = 0

    public init() {}

    public var json: JSONValue {
        .object([
            "plays": .int(plays),
            "ttffMs": .object(["p50": .optional(ttffMs.p50), "p95": .optional(ttffMs.p95), "max": .optional(ttffMs.max)]),
            "startedWithin50msRatio": .optional(startedWithin50msRatio),
            "stalls": .object(["count": .int(stallCount), "totalMs": .double(stallTotalMs)]),
            "frames": .int(frames),
            "cdn": .object(["requests": .int(cdnRequests), "bytes": .int(Int(cdnBytes))]),
            "bytesPlayed": .int(Int(bytesPlayed)),
            "cacheHitRatio": .double(cacheHitRatio),
            "prefetch": .object([
                "fetchedBytes": .int(Int(prefetchFetchedBytes)), "usedBytes": .int(Int(prefetchUsedBytes)),
                "wastedBytes": .int(Int(prefetchWastedBytes)),
            ]),
            "decoders": .object(["created": .int(decodersCreated), "reused": .int(decodersReused)]),
            "peakRSSMB": .double(peakRSSMB),
            "errors": .int(errors),
        ])
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
