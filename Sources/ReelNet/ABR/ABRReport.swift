import ReelManifest
/// What the adaptive rule did in one play, as `reel play --json` prints it (`abr`) and a feed
/// session folds into its summary: the estimate, the start variant, the variant of each segment
/// fetched, and the switches. Variants are named by their media playlist URL.
public struct ABRReport: Sendable, Hashable, Codable {
    /// One segment the demuxer fetched.
    public struct Segment: Sendable, Hashable, Codable {
        public var index: Int
        public var variant: String
        /// The variant's peak bitrate (`BANDWIDTH`), in kilobits per second.
        public var kbps: Int
        /// How long the segment plays.
        public var seconds: Double

        public init(index: Int, variant: String, kbps: Int, seconds: Double) {
            self.index = index
            self.variant = variant
            self.kbps = kbps
            self.seconds = seconds
        }
    }

    /// A change of variant at a segment boundary.
    public struct Switch: Sendable, Hashable, Codable {
        /// The first segment of the new variant.
        public var segment: Int
        public var from: String
        public var to: String
        /// `up`, `down-throughput`, `down-buffer`, `down-stall` or `fallback` (`ABRDecision.Reason`).
        public var reason: String

        public init(segment: Int, from: String, to: String, reason: String) {
            self.segment = segment
            self.from = from
            self.to = to
            self.reason = reason
        }

        public var isUp: Bool { reason == ABRDecision.Reason.up.rawValue }
    }

    /// A segment taken from another variant than the one chosen for it, because the chosen
    /// variant's segment failed (after its retries) or was not media: `from` the variant that
    /// failed (excluded from then on), `to` the one the segment came from, `reason` what went
    /// wrong. The shape of a switch.
    public typealias Fallback = Switch

    /// A variant left out for the rest of the play: its playlist could not be read or does not
    /// line up, its host is unreachable, or one of its segments failed or was not media.
    public struct Exclusion: Sendable, Hashable, Codable {
        public var variant: String
        /// The segment being fetched when it was excluded; nil when it was at the start.
        public var segment: Int?
        public var reason: String

        public init(variant: String, segment: Int?, reason: String) {
            self.variant = variant
            self.segment = segment
            self.reason = reason
        }
    }

    /// The meter's estimate when the report was made, in kilobits per second.
    public var estimateKbps: Int
    /// The estimate the start variant was chosen with, in kilobits per second.
    public var startEstimateKbps: Int
    public var startVariant: String
    /// Whether the play could switch (ABR on, a ladder of aligned segments without keys or init
    /// sections); otherwise every segment is the start variant's.
    public var adaptive: Bool
    public var segments: [Segment]
    public var switches: [Switch]
    /// Segments taken from another variant because the chosen one's failed or was not media.
    public var fallbacks: [Fallback]
    /// Variants left out for the rest of the play, in the order they were.
    public var excluded: [Exclusion]

    public init(estimateKbps: Int, startEstimateKbps: Int, startVariant: String, adaptive: Bool,
                segments: [Segment] = [], switches: [Switch] = [], fallbacks: [Fallback] = [], excluded: [Exclusion] = []) {
        self.estimateKbps = estimateKbps
        self.startEstimateKbps = startEstimateKbps
        self.startVariant = startVariant
        self.adaptive = adaptive
        self.segments = segments
        self.switches = switches
        self.fallbacks = fallbacks
        self.excluded = excluded
    }

    /// Media seconds of each segment within the first `played` seconds of the stream (segments
    /// in play order from 0), with the segment's variant and bitrate.
    public func played(seconds played: Double) -> [(variant: String, kbps: Int, seconds: Double)] {
        var start = 0.0
        var result: [(variant: String, kbps: Int, seconds: Double)] = []
        for segment in segments.sorted(by: { $0.index < $1.index }) {
            let share = min(segment.seconds, max(0, played - start))
            if share > 0 { result.append((segment.variant, segment.kbps, share)) }
            start += segment.seconds
        }
        return result
    }
}
