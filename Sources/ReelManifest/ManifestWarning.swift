import ReelCore
/// Something a parser recovered from: the line (HLS) or element line (DASH) and what it did.
/// Recovered input still parses; see docs/manifest-policy.md for what is recovered and what is
/// rejected.
public struct ManifestWarning: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line in the playlist or MPD, when known.
    public var line: Int?
    public var message: String

    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String {
        guard let line else { return message }
        return "line \(line): \(message)"
    }
}
