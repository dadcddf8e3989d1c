/// Where a request stands in the prefetch queue: its category's position in
/// `prefetch.categories` (0 is the highest), then its rank inside the category (lower is nearer
/// the viewport, so first). Requests of equal priority run in arrival order.
public struct PrefetchPriority: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The category's position in the configured order; 0 runs first.
    public var tier: Int
    public var rank: Int

    public init(tier: Int, rank: Int) {
        self.tier = tier
        self.rank = rank
    }

    public static func < (a: PrefetchPriority, b: PrefetchPriority) -> Bool {
        (a.tier, a.rank) < (b.tier, b.rank)
    }

    public var description: String { "tier \(tier) rank \(rank)" }
}
