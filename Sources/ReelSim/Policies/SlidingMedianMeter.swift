import ReelCore

/// The bandwidth meter of a simulated client: Reel's own estimate, rule for rule. It mirrors
/// `ReelNet`'s `BandwidthEstimator` over its `SlidingPercentile` (which ReelSim cannot link: ReelNet
/// brings libcurl): each transfer is a sample valued at its bit rate and weighted by the square
/// root of its bytes; the oldest leave once the window weighs more than `abr.meter.maxWeight`;
/// the estimate is the window's `abr.meter.percentile` once `abr.meter.minElapsedMs` of transfer
/// time or `abr.meter.minBytes` have been measured, none before. Transfer time excludes the
/// request's latency, as the real meter times from the first byte. Keep the two in step.
public struct SlidingMedianMeter: Sendable {
    public var maxWeight: Double
    public var percentile: Double
    public var minElapsed: Double
    public var minBytes: Int
    private var samples: [(weight: Double, value: Double)] = []
    private var totalWeight = 0.0
    public private(set) var measuredBytes = 0
    public private(set) var measuredSeconds = 0.0

    public init(maxWeight: Double = 2000, percentile: Double = 0.5, minElapsed: Double = 2, minBytes: Int = 512 * 1024) {
        self.maxWeight = max(1, maxWeight)
        self.percentile = percentile
        self.minElapsed = minElapsed
        self.minBytes = minBytes
    }

    /// The meter `abr.meter.*` describes.
    public init(_ settings: ABRSettings.Meter) {
        self.init(maxWeight: Double(settings.maxWeight), percentile: settings.percentile,
                  minElapsed: Double(settings.minElapsedMs) / 1000, minBytes: settings.minBytes)
    }

    /// One transfer: `bytes` over `seconds` from its first byte to its last.
    public mutating func add(bytes: Int, seconds: Double) {
        guard bytes > 0, seconds > 0 else { return }
        measuredBytes += bytes
        measuredSeconds += seconds
        let weight = Double(bytes).squareRoot(), value = Double(bytes) * 8 / seconds
        guard value.isFinite else { return }
        samples.append((weight, value))
        totalWeight += weight
        var drop = 0
        while totalWeight > maxWeight {
            let excess = totalWeight - maxWeight
            if samples[drop].weight <= excess {
                totalWeight -= samples[drop].weight
                drop += 1
            } else {
                samples[drop].weight -= excess
                totalWeight -= excess
            }
        }
        if drop > 0 { samples.removeFirst(drop) }
    }

    /// The estimate in bits per second, nil until enough is measured.
    public var bitsPerSecond: Double? {
        guard !samples.isEmpty, measuredSeconds >= minElapsed || measuredBytes >= minBytes else { return nil }
        let sorted = samples.sorted { $0.value < $1.value }
        let desired = min(1, max(0, percentile)) * totalWeight
        var accumulated = 0.0
        for sample in sorted {
            accumulated += sample.weight
            if accumulated >= desired { return max(1, sample.value.rounded()) }
        }
        return max(1, sorted[sorted.count - 1].value.rounded())
    }
}
