/// What the adaptive rule chose for one segment: the variant (an index into its ladder) and why.
public struct ABRDecision: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The first segment: the start variant.
        case start
        /// Kept the variant of the previous segment.
        case hold
        /// Up: the estimate allowed a higher variant for `upHold`, with enough buffer.
        case up
        /// Down: the estimate no longer sustains the variant and the buffer would not last the
        /// next segment's fetch.
        case downThroughput = "down-throughput"
        /// Down: less than `lowBuffer` of media was left ahead.
        case downBuffer = "down-buffer"
        /// Down: the player ran dry since the last segment (at least one step).
        case downStall = "down-stall"
        /// The chosen variant's segment failed or was not media: the segment came from the
        /// variant before (or the nearest usable one), and the failed variant is excluded.
        case fallback
        /// The session's download policy chose it (`SegmentTurns`).
        case scheduler

        public var isUp: Bool { self == .up }
        public var isDown: Bool { self == .downThroughput || self == .downBuffer || self == .downStall }
    }

    public var variant: Int
    public var reason: Reason

    public init(variant: Int, reason: Reason) {
        self.variant = variant
        self.reason = reason
    }
}
