import ReelCore
/// Where a card stands with respect to the viewport. Each state says what the card needs, so a
/// consumer reconciles resources with the target state of a transition, whatever the source:
///
/// | state        | data            | decoder  | may play |
/// |--------------|-----------------|----------|----------|
/// | idle         | none            | none     | no       |
/// | prefetch     | first segments  | none     | no       |
/// | mounted      | yes             | attached | no       |
/// | ready        | yes             | attached | yes (waiting for a grant) |
/// | active       | yes             | attached | playing (granted by the arbiter) |
/// | softRelease  | yes             | attached | playing, may be handed over |
/// | paused       | yes             | attached | no       |
/// | unmounted    | cached          | detached | no       |
public enum VisibilityState: String, Sendable, Hashable, CaseIterable, Codable {
    case idle, prefetch, mounted, ready, active, softRelease, paused, unmounted

    /// Whether a decoder is attached in this state.
    public var isMounted: Bool {
        switch self {
        case .mounted, .ready, .active, .softRelease, .paused: true
        case .idle, .prefetch, .unmounted: false
        }
    }

    /// Whether a card in this state may be playing.
    public var mayPlay: Bool {
        switch self {
        case .ready, .active, .softRelease: true
        default: false
        }
    }
}
