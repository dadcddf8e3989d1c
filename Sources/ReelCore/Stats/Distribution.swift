/// Percentiles of a set of samples (nearest-rank), for the p50/p95/p99/max figures reports print.
public struct Distribution: Sendable, Hashable {
    private var sorted: [Double]

    public init<S: Sequence>(_ samples: S) where S.Element == Double {
        sorted = samples.filter { !$0.isNaN }.sorted()
    }

    public var count: Int { sorted.count }
    public var isEmpty: Bool { sorted.isEmpty }
    public var max: Double { sorted.last ?? 0 }
    public var min: Double { sorted.first ?? 0 }
    public var mean: Double { sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count) }

    /// The nearest-rank percentile for `fraction` in 0...1; 0 when there are no samples.
    public func percentile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    public var p50: Double { percentile(0.50) }
    public var p95: Double { percentile(0.95) }
    public var p99: Double { percentile(0.99) }
}
