/// A percentile over the most recent weighted samples (Media3's `SlidingPercentile`): samples
/// join with a weight, the oldest leave (or shrink) once the total passes `maxWeight`, and the
/// percentile is read off the window sorted by value. Pure; a window of a few dozen samples.
public struct SlidingPercentile: Sendable, Hashable {
    private struct Sample: Sendable, Hashable {
        var weight: Double
        var value: Double
    }

    public let maxWeight: Double
    private var samples: [Sample] = []
    private var totalWeight = 0.0

    public init(maxWeight: Double) {
        self.maxWeight = max(1, maxWeight)
    }

    /// Samples in the window.
    public var count: Int { samples.count }

    /// Adds `value` with `weight` (ignored when not positive), then trims the oldest samples
    /// until the window weighs at most `maxWeight`.
    public mutating func add(weight: Double, value: Double) {
        guard weight > 0, value.isFinite else { return }
        samples.append(Sample(weight: weight, value: value))
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

    /// The value below which `percentile` (0...1) of the window's weight lies; nil when empty.
    public func value(at percentile: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted { $0.value < $1.value }
        let desired = min(1, max(0, percentile)) * totalWeight
        var accumulated = 0.0
        for sample in sorted {
            accumulated += sample.weight
            if accumulated >= desired { return sample.value }
        }
        return sorted[sorted.count - 1].value
    }
}
