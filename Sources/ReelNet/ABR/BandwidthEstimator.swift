import ReelCore

/// The bandwidth estimate of a meter (Media3's `DefaultBandwidthMeter`): transfer samples go
/// into a `SlidingPercentile` weighted by the square root of their bytes, valued at their bit
/// rate; until `minElapsed` of transfers or `minBytes` have been measured the estimate is the
/// initial one (remembered for the network, or configured). Pure: samples in, an estimate out.
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
    private var window: SlidingPercentile
    /// Samples taken, bytes and time measured, over the estimator's life.
    public private(set) var samples = 0
    public private(set) var measuredBytes: Int64 = 0
    public private(set) var measuredTime: Duration = .zero

    public init(initialBitsPerSecond: Int, parameters: Parameters = Parameters()) {
        self.parameters = parameters
        self.initialBitsPerSecond = max(1, initialBitsPerSecond)
        window = SlidingPercentile(maxWeight: parameters.maxWeight)
    }

    /// One sample: `bytes` arrived over `elapsed` of transfer time.
    public mutating func add(bytes: Int64, elapsed: Duration) {
        guard bytes > 0, elapsed > .zero else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        samples += 1
        measuredBytes += bytes
        measuredTime += elapsed
        window.add(weight: Double(bytes).squareRoot(), value: Double(bytes) * 8 / seconds)
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
}
