/// What prefetch may run while something plays (`PrefetchPolicy.setGate`): everything, only the
/// highest category (the cards about to play), or nothing (a play waits for its first frame,
/// and the network is its alone).
public enum PrefetchGate: String, Sendable, Hashable, Codable {
    case open
    case urgentOnly
    case closed

    /// Whether a request of category position `tier` (0 is the highest) may run.
    public func admits(tier: Int) -> Bool {
        switch self {
        case .open: true
        case .urgentOnly: tier == 0
        case .closed: false
        }
    }
}
