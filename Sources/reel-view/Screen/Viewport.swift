import ReelFeed

/// Where the screen's points land in the window: `scale` pixels per point from `origin`, the
/// screen (the engine's layout size) centred in the window and scaled to fit it, so a resized
/// window shows the same feed larger or smaller.
struct Viewport: Equatable {
    /// The screen in points.
    let points: Size
    private(set) var scale: Double
    private(set) var originX = 0.0
    private(set) var originY = 0.0

    init(points: Size, scale: Double) {
        self.points = points
        self.scale = scale
    }

    /// Fits the screen into a window of `width` x `height` pixels.
    mutating func fit(width: Int, height: Int) {
        scale = min(Double(width) / points.width, Double(height) / points.height)
        originX = ((Double(width) - points.width * scale) / 2).rounded(.down)
        originY = ((Double(height) - points.height * scale) / 2).rounded(.down)
    }

    /// A rectangle in points on the screen, in pixels (edges rounded alike, so neighbours meet).
    func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> PixelRect {
        let left = (originX + x * scale).rounded(), top = (originY + y * scale).rounded()
        let right = (originX + (x + width) * scale).rounded(), bottom = (originY + (y + height) * scale).rounded()
        return PixelRect(x: Int32(left), y: Int32(top), w: Int32(right - left), h: Int32(bottom - top))
    }

    func rect(_ rect: Rect) -> PixelRect { self.rect(rect.x, rect.y, rect.width, rect.height) }

    /// The whole screen in pixels.
    var screen: PixelRect { rect(0, 0, points.width, points.height) }

    /// A point in pixels as points on the screen.
    func point(pixelX: Double, pixelY: Double) -> (x: Double, y: Double) {
        ((pixelX - originX) / scale, (pixelY - originY) / scale)
    }

    /// A length in points, in whole pixels.
    func pixels(_ points: Double) -> Int32 { Int32((points * scale).rounded()) }
}
