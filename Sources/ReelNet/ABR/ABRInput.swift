/// What the adaptive rule looks at when a segment is about to be fetched.
public struct ABRInput: Sendable, Hashable {
    /// The segment's index in the playlist (0 is the first).
    public var segment: Int
    /// How long the segment plays.
    public var segmentDuration: Duration
    /// Media fetched ahead of the playhead (up to this segment's start); nil when the playhead
    /// does not move (the player does not play yet) or nobody says where it is: no hurry.
    public var buffered: Duration?
    /// Times the player ran dry so far.
    public var stalls: Int
    /// The meter's estimate, in bits per second: the whole link's.
    public var estimate: Int
    /// What the last segment fetched from the network measured alone (its bytes over the time
    /// from its first byte to its last), in bits per second (nil
    /// before one was, or when it is older than `ABRParameters.throughputMaxAge`); a fall shows
    /// here before it moves the meter's median.
    public var lastThroughput: Int?
    /// The meter's request latency estimate: what every segment costs before its first byte.
    public var latency: Duration
    /// Adaptive plays whose playheads move on this link now, this one included (at least 1): a
    /// carousel playing three cards gives each a third of what the meter measures.
    public var sharers: Int
    /// Time since the play began, on whatever clock drives the rule.
    public var now: Duration

    public init(segment: Int, segmentDuration: Duration, buffered: Duration?, stalls: Int, estimate: Int,
                lastThroughput: Int? = nil, latency: Duration = .zero, sharers: Int = 1, now: Duration) {
        self.segment = segment
        self.segmentDuration = segmentDuration
        self.buffered = buffered
        self.stalls = stalls
        self.estimate = estimate
        self.lastThroughput = lastThroughput
        self.latency = latency
        self.sharers = max(1, sharers)
        self.now = now
    }
}

extension ABRInput {
    /// This play's share of the meter's estimate: the link split evenly among the plays on it.
    public var share: Int { estimate / max(1, sharers) }
}
