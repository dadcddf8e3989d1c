import ReelCore

/// Reel's adaptive bitrate rule for one play, rule for rule: it mirrors `ReelNet`'s `ABRPolicy`
/// (with `ABRParameters.affordable` and `VariantSelector`'s choice), which ReelSim cannot link
/// (ReelNet brings libcurl). Keep the two in step. Variants have no picture size here (every one
/// fits the device) and none is ever excluded; one play at a time has the whole link.
///
/// - "Affords": fetching a segment, the latency plus its bits over the figure, takes at most the
///   safety factor of its play time: the highest bitrate at most `estimate × (safety −
///   latency / segment)`, else the lowest.
/// - A stall since the last segment: down at least one step, to what the lower of the estimate
///   and the last segment's own throughput affords.
/// - That lower figure affords less than the current variant: down to it when the buffer is
///   under `lowBuffer`, or shorter than fetching the next segment at the current bitrate would
///   take; a healthy buffer rides out a dip.
/// - The estimate affords more: up once it has done so for `upHold` with `minBufferForUp` ahead.
/// - Otherwise the variant holds.
public struct AdaptiveRule: Sendable {
    public struct Parameters: Sendable, Equatable {
        public var safetyFactor = 0.75
        public var switching = true
        public var minBufferForUp = 1.5
        public var upHold = 2.0
        public var lowBuffer = 1.0
        public var throughputMaxAge = 4.0
        public var startSegment = 2.0

        public init() {}

        /// The parameters `abr.*` describe (seconds here, milliseconds there).
        public init(_ settings: ABRSettings) {
            safetyFactor = min(1, max(0.01, settings.safetyFactor))
            switching = settings.switching.enabled
            minBufferForUp = Double(settings.switching.minBufferForUpMs) / 1000
            upHold = Double(settings.switching.upHoldMs) / 1000
            lowBuffer = Double(settings.switching.lowBufferMs) / 1000
            throughputMaxAge = Double(settings.switching.throughputMaxAgeMs) / 1000
            startSegment = max(0.1, Double(settings.startSegmentMs) / 1000)
        }

        /// The highest peak bitrate `estimate` affords with `latency` per request for segments of
        /// `segment` seconds (`ABRParameters.affordable`).
        public func affordable(_ estimate: Int, latency: Double, segment: Double) -> Int {
            let share = segment > 0 ? safetyFactor - latency / segment : safetyFactor
            return Int((Double(estimate) * max(0, share)).rounded(.down))
        }
    }

    /// What the rule looks at for the next segment (`ABRInput`, times in seconds).
    public struct Input: Sendable, Equatable {
        public var segmentDuration: Double
        /// Media ahead of the playhead; nil when the playhead does not move.
        public var buffered: Double?
        public var stalls: Int
        /// The link's estimate, bits per second.
        public var estimate: Int
        /// The last segment's own throughput, bits per second, when recent.
        public var lastThroughput: Int?
        public var latency: Double
        public var now: Double

        public init(segmentDuration: Double, buffered: Double?, stalls: Int, estimate: Int, lastThroughput: Int?, latency: Double,
                    now: Double) {
            self.segmentDuration = segmentDuration
            self.buffered = buffered
            self.stalls = stalls
            self.estimate = estimate
            self.lastThroughput = lastThroughput
            self.latency = latency
            self.now = now
        }
    }

    /// Peak bitrates of the variants, lowest first.
    public let ladder: [Int]
    public let parameters: Parameters
    public private(set) var current: Int
    private var upSince: Double?
    private var stallsSeen = 0

    public init(ladder: [Int], parameters: Parameters, start: Int) {
        self.ladder = ladder
        self.parameters = parameters
        current = min(max(0, start), max(0, ladder.count - 1))
    }

    /// The start variant for `estimate` and `latency` (`ABRPolicy.startIndex`, segments of
    /// `startSegment`).
    public static func startIndex(ladder: [Int], parameters: Parameters, estimate: Int, latency: Double) -> Int {
        select(ladder, limit: parameters.affordable(estimate, latency: latency, segment: parameters.startSegment))
    }

    /// The variant for the next segment.
    public mutating func decide(_ input: Input) -> Int {
        let newStall = input.stalls > stallsSeen
        stallsSeen = max(stallsSeen, input.stalls)
        guard parameters.switching, ladder.count > 1 else { return current }
        let share = input.estimate
        let low = min(share, input.lastThroughput ?? share)
        let sustained = afforded(share, input)
        let cautious = afforded(low, input)
        let now = ladder[current]
        if newStall {
            let down = ladder.indices.filter { ladder[$0] < now }.max { ladder[$0] < ladder[$1] } ?? current
            return move(to: ladder[cautious] <= ladder[down] ? cautious : down)
        }
        if ladder[cautious] < now {
            upSince = nil
            guard let buffered = input.buffered else { return current }
            if buffered < parameters.lowBuffer { return move(to: cautious) }
            let fetch = input.latency + input.segmentDuration * (Double(now) / Double(max(1, low)))
            if fetch >= buffered { return move(to: cautious) }
            return current
        }
        if ladder[sustained] > now {
            let since = upSince ?? input.now
            upSince = since
            if input.now - since >= parameters.upHold, (input.buffered ?? 3600) >= parameters.minBufferForUp {
                return move(to: sustained)
            }
            return current
        }
        upSince = nil
        return current
    }

    private mutating func move(to target: Int) -> Int {
        guard target != current else { return current }
        current = target
        upSince = nil
        return current
    }

    private func afforded(_ estimate: Int, _ input: Input) -> Int {
        Self.select(ladder, limit: parameters.affordable(estimate, latency: input.latency, segment: input.segmentDuration))
    }

    /// `VariantSelector`'s choice: the highest bitrate within `limit`, else the lowest (earlier
    /// on ties).
    static func select(_ ladder: [Int], limit: Int) -> Int {
        var best: Int?
        var lowest = 0
        for (index, bitrate) in ladder.enumerated() {
            if bitrate < ladder[lowest] { lowest = index }
            guard bitrate <= limit else { continue }
            if best == nil || bitrate > ladder[best!] { best = index }
        }
        return best ?? lowest
    }
}
