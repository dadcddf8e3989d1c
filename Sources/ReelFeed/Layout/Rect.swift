import OrderedCollections
import ReelCore

/// An axis-aligned rectangle in points; y grows downwards, as in the feed's content coordinates.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var area: Double { width * height }

    /// The area shared with the band `minX..<maxX` x `minY..<maxY`, zero when they do not meet.
    @inline(__always)
    public func overlapArea(minX: Double, maxX: Double, minY: Double, maxY: Double) -> Double {
        let w = min(self.maxX, maxX) - max(self.minX, minX)
        let h = min(self.maxY, maxY) - max(self.minY, minY)
        return w > 0 && h > 0 ? w * h : 0
    }

    public var json: JSONValue {
        .object(["x": .double(x), "y": .double(y), "width": .double(width), "height": .double(height)])
    }
}
