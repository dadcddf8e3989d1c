/// What drawing a Lottie document costs rlottie, counted from its structure before rlottie sees
/// it: every figure counts what a frame draws after copies multiply, through nested repeaters
/// and every instance of a precomposition (`LottieLimits` bounds each).
public struct LottieCost: Sendable, Hashable {
    /// Layers after precompositions are expanded.
    public var layers: Double = 0
    /// Shapes drawn a frame (rectangles, ellipses, stars, paths), every copy counted.
    public var shapes: Double = 0
    /// Matte and mask buffers, each the size of the canvas.
    public var buffers: Double = 0
    /// Area solids and images paint a frame, in canvases.
    public var paintedCanvases: Double = 0
    /// Pixels of the embedded images, decoded.
    public var imagePixels: Double = 0
    /// The widest stroke drawn, in pixels, after every scale on it (the most each transform
    /// scales an axis, a repeater's once per copy).
    public var strokeWidth: Double = 0

    public init() {}

    /// Bytes the matte and mask buffers of a `pixels`-pixel canvas take (4 bytes a pixel).
    public func bufferBytes(canvasPixels pixels: Int) -> Double {
        buffers * Double(pixels) * 4
    }

    static func += (total: inout LottieCost, part: LottieCost) {
        total.layers += part.layers
        total.shapes += part.shapes
        total.buffers += part.buffers
        total.paintedCanvases += part.paintedCanvases
        total.strokeWidth = max(total.strokeWidth, part.strokeWidth)
    }

    /// This cost drawn through a transform scaling by `scale` (a precomposition's layer).
    func scaled(by scale: Double) -> LottieCost {
        var cost = self
        if cost.strokeWidth > 0 { cost.strokeWidth *= scale }
        return cost
    }
}
