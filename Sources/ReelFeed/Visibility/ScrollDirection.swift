import ReelCore
/// The direction of the last vertical scroll movement: the prefetch range lies ahead of it.
public enum ScrollDirection: String, Sendable {
    /// Towards later widgets (the offset grows).
    case down
    /// Towards earlier widgets.
    case up
}
