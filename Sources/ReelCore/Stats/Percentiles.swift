/// What every report prints of a set of durations in milliseconds: how many, p50, p95, p99 and
/// the largest. The figures are nil when there were no samples (no play reached a first frame),
/// which JSON writes as null rather than a 0 that reads as "instant".
public struct Percentiles: Sendable, Hashable, Codable {
    public var count = 0
    public var p50: Double?
    public var p95: Double?
    public var p99: Double?
    public var max: Double?

    public init(count: Int = 0, p50: Double? = nil, p95: Double? = nil, p99: Double? = nil, max: Double? = nil) {
        self.count = count
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
    }

    private enum Keys: String, CodingKey { case count, p50, p95, p99, max }

    /// `count` and `p99` may be missing (summaries written before they were): 0 and null then.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 0
        p50 = try container.decodeIfPresent(Double.self, forKey: .p50)
        p95 = try container.decodeIfPresent(Double.self, forKey: .p95)
        p99 = try container.decodeIfPresent(Double.self, forKey: .p99)
        max = try container.decodeIfPresent(Double.self, forKey: .max)
    }
}
