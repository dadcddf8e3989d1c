import ReelCore
/// Counts of one widget type's view holders.
public struct RecyclerStats: Sendable, Equatable {
    /// Holders made because the pool was empty.
    public var created = 0
    /// Bindings served from the pool.
    public var reused = 0
    /// Holders dropped because the pool was full.
    public var discarded = 0
    /// Holders bound now.
    public var bound = 0
    /// Holders waiting in the pool now.
    public var pooled = 0

    public init() {}
}
