/// Where a player stands, for the adaptive rule: how much of the stream it has played and how
/// often it ran dry. The player (or `reel play`) provides it; the rule reads it at each segment.
public struct ABRPlayhead: Sendable, Hashable {
    /// Media time played from the stream's start (nil when unknown: the buffer is then unknown).
    public var position: Duration?
    /// Times the player ran dry so far.
    public var stalls: Int
    /// Whether the playhead moves (a prepared player that does not play yet has all the time it
    /// wants to fetch its next segments).
    public var playing: Bool

    public init(position: Duration?, stalls: Int, playing: Bool = true) {
        self.position = position
        self.stalls = stalls
        self.playing = playing
    }
}
