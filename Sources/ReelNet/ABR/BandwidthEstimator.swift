import ReelCore

/// The bandwidth estimate of a meter (Media3's `DefaultBandwidthMeter`): transfer samples go
/// into a `SlidingPercentile` weighted by the square root of their bytes, valued at their bit
/// rate; until `minElapsed` of transfers or `minBytes` have been measured the estimate is the
/// initial one (remembered for the network, or configured). Samples time a transfer from its
/// response's first byte; the time before it, a request's latency, is estimated apart (the median
/// of the last `latencySamples`), as Shaka's and hls.js's TTFB estimates are: a segment costs
/// its latency plus its bytes over the bandwidth, so a small segment's latency does not understate
/// the bandwidth a big one gets. Pure: samples in, an estimate out.
public struct BandwidthEstimator: Sendable, Hashable {
    public struct Parameters: Sendable, Hashable {
        public var maxWeight: Double
        public var percentile: Double
        public var minElapsed: Duration
        public var minBytes: Int64

        public init(maxWeight: Double = 2000, percentile: Double = 0.5, minElapsed: Duration = .seconds(2),
                    minBytes: Int64 = 512 * 1024) {
            self.maxWeight = maxWeight
            self.percentile = percentile
            self.minElapsed = minElapsed
            self.minBytes = minBytes
        }

        /// The parameters the `abr.meter.*` keys describe.
        public init(_ settings: ABRSettings.Meter) {
            self.init(maxWeight: Double(settings.maxWeight), percentile: settings.percentile,
                      minElapsed: .milliseconds(settings.minElapsedMs), minBytes: Int64(settings.minBytes))
        }
    }

    public let parameters: Parameters
    /// The estimate before enough has been measured, in bits per second.
    public private(set) var initialBitsPerSecond: Int
    /// Whether the initial estimate was measured (remembered from an earlier session on this
    /// network) rather than configured.
    public let initialIsMeasured: Bool
    private var window: SlidingPercentile
    /// Samples taken, bytes and time measured, over the estimator's life.
    public private(set) var samples = 0
    public private(set) var measuredBytes: Int64 = 0
    public private(set) var measuredTime: Duration = .zero
    /// The newest request latencies (request sent to response's first byte), oldest first.
    private var latencies: [Duration] = []
    /// How many latencies the latency estimate is the median of.
    public static let latencySamples = 8

    public init(initialBitsPerSecond: Int, parameters: Parameters = Parameters(), initialIsMeasured: Bool = false) {
        self.parameters = parameters
        self.initialBitsPerSecond = max(1, initialBitsPerSecond)
        self.initialIsMeasured = initialIsMeasured
        window = SlidingPercentile(maxWeight: parameters.maxWeight)
    }

    /// One sample: `bytes` arrived over `elapsed` of transfer time.
    public mutating func add(bytes: Int64, elapsed: Duration) {
        guard bytes > 0, elapsed > .zero else { return }
        let seconds = elapsed.seconds
        samples += 1
        measuredBytes += bytes
        measuredTime += elapsed
        window.add(weight: Double(bytes).squareRoot(), value: Double(bytes) * 8 / seconds)
    }

    /// One request's latency: from the request leaving to its response's first byte.
    public mutating func addLatency(_ latency: Duration) {
        guard latency >= .zero else { return }
        latencies.append(latency)
        if latencies.count > Self.latencySamples { latencies.removeFirst(latencies.count - Self.latencySamples) }
    }

    /// The latency estimate: the median of the newest latencies, zero before any.
    public var latency: Duration {
        guard !latencies.isEmpty else { return .zero }
        let sorted = latencies.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Enough has been measured for the window to stand for the network.
    public var isMeasured: Bool {
        samples > 0 && (measuredTime >= parameters.minElapsed || measuredBytes >= parameters.minBytes)
    }

    /// The estimate in bits per second: the window's percentile once measured, else the initial one.
    public var bitsPerSecond: Int {
        guard isMeasured, let value = window.value(at: parameters.percentile) else { return initialBitsPerSecond }
        return max(1, Int(value.rounded()))
    }

    /// The estimate once it rests on a measurement (this estimator's samples, or a remembered
    /// initial one); nil while it is only the configured guess. The link scheduler plans a cold
    /// start with its own cautious guess instead (`scheduler.startBandwidthKbps`).
    public var measuredBitsPerSecond: Int? {
        isMeasured || initialIsMeasured ? bitsPerSecond : nil
    }
}
