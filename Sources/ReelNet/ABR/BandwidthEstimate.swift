import ReelCore

/// What a bandwidth meter says at one moment, as reports print it (`bandwidth` in `reel play
/// --json` and in a feed session's summary).
public struct BandwidthEstimate: Sendable, Hashable, Codable {
    /// The estimate in kilobits per second.
    public var estimateKbps: Int
    /// Transfer samples taken.
    public var samples: Int
    /// Whether enough was measured for the estimate to come from the samples (else it is the
    /// initial one).
    public var measured: Bool
    /// The estimate the meter started from, in kilobits per second.
    public var initialKbps: Int
    /// The request latency estimate (request sent to first response byte), in milliseconds; 0
    /// before any request was answered (and in reports written before it was measured).
    @Defaulted public var latencyMs: Double

    public init(estimateKbps: Int, samples: Int, measured: Bool, initialKbps: Int, latencyMs: Double = 0) {
        self.estimateKbps = estimateKbps
        self.samples = samples
        self.measured = measured
        self.initialKbps = initialKbps
        self.latencyMs = latencyMs
    }
}
