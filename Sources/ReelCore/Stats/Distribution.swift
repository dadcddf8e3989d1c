import Histogram

/// Durations in milliseconds recorded into an HdrHistogram at microsecond resolution (three
/// significant digits, up to an hour): constant memory however many samples a long-lived pool or
/// a session records, and the percentiles every report prints (`Percentiles`).
public struct Distribution: Sendable {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    private var sum = 0.0

    public init() {}

    public init<S: Sequence>(_ samples: S) where S.Element == Double {
        for sample in samples { record(sample) }
    }

    /// Records one duration; a NaN is ignored, a negative one counts as 0, one past an hour as an hour.
    public mutating func record(_ milliseconds: Double) {
        guard !milliseconds.isNaN else { return }
        let clamped = Swift.min(Swift.max(milliseconds, 0), 3_600_000)
        histogram.record(UInt64((clamped * 1000).rounded()))
        sum += clamped
    }

    public var count: Int { Int(histogram.totalCount) }
    public var isEmpty: Bool { histogram.totalCount == 0 }

    /// The value at `percentile` (0-100), in milliseconds; nil without samples.
    public func value(atPercentile percentile: Double) -> Double? {
        isEmpty ? nil : Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    public var p50: Double? { value(atPercentile: 50) }
    public var p95: Double? { value(atPercentile: 95) }
    public var p99: Double? { value(atPercentile: 99) }
    public var max: Double? { isEmpty ? nil : Double(histogram.max) / 1000 }
    public var min: Double? { isEmpty ? nil : Double(histogram.min) / 1000 }
    public var mean: Double? { isEmpty ? nil : sum / Double(count) }

    /// The figures reports print.
    public var percentiles: Percentiles {
        Percentiles(count: count, p50: p50, p95: p95, p99: p99, max: max)
    }
}
