/// A player's state and counters at one moment (`Player.status`).
public struct PlayerStatus: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// Created, not asked to prepare or play yet.
        case idle
        /// Opening the input or waiting for a decoder.
        case preparing
        /// Input open, decoder held, not playing (a mounted card).
        case ready
        case playing
        case paused
        case ended
        case failed
        case stopped
    }

    public var state: State = .idle
    /// Frames handed to the renderer so far.
    public var frames = 0
    /// Media demuxed ahead of the renderer: queued packets plus frames waiting to be shown.
    public var buffered: Duration = .zero
    /// Frames that reached the renderer after their due time (the picture froze), as `reel play`
    /// counts stalls.
    public var stalls = 0
    /// Times the player ran out of demuxed media while playing and waited to rebuffer.
    public var rebuffers = 0
    public var preemptions = 0

    public init() {}
}
