/// How much a holder of a pooled decoder needs it now; the pool preempts only strictly lower
/// priorities, and never a playing one.
///
/// - `mounted`: a card on or near the screen that prepared its player but is not playing.
/// - `paused`: a player that played and was paused; it keeps its position and its decoder until
///   someone who needs a decoder more comes along.
/// - `playing`: a player showing frames. Never preempted, whoever asks.
public enum DecoderPriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case mounted = 0
    case paused = 1
    case playing = 2

    public static func < (lhs: DecoderPriority, rhs: DecoderPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True when a request of `self` may take the decoder of a holder at `holder`.
    public func mayPreempt(_ holder: DecoderPriority) -> Bool {
        holder != .playing && holder < self
    }

    public var description: String {
        switch self {
        case .mounted: "mounted"
        case .paused: "paused"
        case .playing: "playing"
        }
    }
}
