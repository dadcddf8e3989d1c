/// A stress run while it runs, for a live progress line.
public struct StressProgress: Sendable {
    public var elapsed: Duration
    public var duration: Duration
    /// Players mounted now, and how many of them play.
    public var mounted: Int
    public var playing: Int
    public var pool: DecoderPoolStatistics
    public var frames: Int
    public var errors: Int
    public var rssMB: Double
}
