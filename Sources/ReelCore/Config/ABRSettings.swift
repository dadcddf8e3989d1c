/// `abr.*`: adaptive bitrate: the bandwidth meter, the start variant it picks, and switching
/// variants at segment boundaries while a video plays (docs/abr.md).
public struct ABRSettings: ConfigSection {
    /// `abr.meter.*`: the bandwidth meter (a sliding median of transfer samples).
    public struct Meter: ConfigSection {
        @Setting("Weight of the meter's sliding window: samples weigh the square root of their bytes, the oldest leave past this total.", .range(1...1_000_000))
        public var maxWeight = 2000

        @Setting("The percentile of the window that is the estimate (0.5: the median).", .range(0.01...0.99))
        public var percentile = 0.5

        @Setting("Measured time, in milliseconds, before the estimate replaces the initial one (or minBytes, whichever comes first).", .range(0...600_000))
        public var minElapsedMs = 2000

        @Setting("Measured bytes before the estimate replaces the initial one (or minElapsedMs, whichever comes first).", .range(0...1_073_741_824))
        public var minBytes = 512 * 1024

        public init() {}
    }

    /// `abr.switching.*`: the rule that changes variant at segment boundaries.
    public struct Switching: ConfigSection {
        @Setting("Switch variants at segment boundaries while a video plays; false keeps the start variant.")
        public var enabled = true

        @Setting("Media buffered ahead, in milliseconds, needed to switch up.", .range(0...600_000))
        public var minBufferForUpMs = 1500

        @Setting("How long, in milliseconds, the estimate must keep allowing a higher variant before switching up.", .range(0...600_000))
        public var upHoldMs = 2000

        @Setting("Below this much media buffered ahead, in milliseconds, at a segment boundary, switch down to what the estimate sustains.", .range(0...600_000))
        public var lowBufferMs = 1000

        @Setting("How long, in milliseconds, the last segment's own throughput counts for a switch down after it was measured.", .range(0...600_000))
        public var throughputMaxAgeMs = 4000

        public init() {}
    }

    @Setting("Adapt: choose the start variant from the measured bandwidth and switch while playing; false chooses once from device.bandwidthEstimateKbps, as before.")
    public var enabled = true

    @Setting("Share of a segment's play time that fetching it may take: the request's latency plus its bytes at the variant's peak bitrate over the estimated bandwidth (with no latency, the share of the estimate a variant may use).", .range(0.05...1.0))
    public var safetyFactor = 0.75

    @Setting("Segment duration, in milliseconds, assumed when a variant is chosen before its media playlist is read (the start variant, prefetch): the latency weighs against it.", .range(100...60_000))
    public var startSegmentMs = 2000

    @Setting("The network the remembered estimate belongs to (feed runs name it after their network profile).")
    public var network = "default"

    @Setting("Remember the estimate per network in the disk cache's index, so the next session starts from it instead of device.bandwidthEstimateKbps.")
    public var persistEstimate = true

    public var meter = Meter()
    public var switching = Switching()

    public init() {}
}
