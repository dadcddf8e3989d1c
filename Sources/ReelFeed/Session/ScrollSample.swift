import ReelCore
/// One line of a scroll trace: at `time`, the viewport's vertical offset, optionally carousels'
/// horizontal offsets by widget id and a tap (the user's intent to play a card).
public struct ScrollSample: Sendable, Equatable {
    /// Seconds since the start of the session.
    public var time: Double
    /// Top of the viewport in the feed's content coordinates, points.
    public var y: Double
    /// Horizontal offsets of carousels by widget id.
    public var x: [String: Double]
    /// The card id the user tapped.
    public var tap: String?
    /// Line in the trace file (1-based), 0 when not from a file.
    public var line: Int

    public init(time: Double, y: Double, x: [String: Double] = [:], tap: String? = nil, line: Int = 0) {
        self.time = time
        self.y = y
        self.x = x
        self.tap = tap
        self.line = line
    }
}
