import ReelCore
import ReelEngine

extension ScrollTrace {
    /// `reel feed run`'s and `reel demo`'s trace when none is given: the first 29 seconds of the
    /// bundled `traces/mixed.jsonl` (reading, carousel swipes, a fling and back): long enough for
    /// a dozen plays, short enough for the demo's two runs to take about a minute.
    public static let defaultFile = "traces/mixed.jsonl"
    public static let defaultSeconds = 29.0
}
