import ReelCore
/// A picture size in pixels (HLS `RESOLUTION`, DASH `@width`/`@height`).
public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The longer side, to compare sizes regardless of orientation.
    public var longSide: Int { max(width, height) }
    /// The shorter side.
    public var shortSide: Int { min(width, height) }

    public var description: String { "\(width)x\(height)" }
}
