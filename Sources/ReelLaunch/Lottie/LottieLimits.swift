/// Bounds Reel puts on a Lottie document before rlottie sees it, so a hostile or broken asset
/// costs bounded memory and time (rlottie has no way to stop a render midway).
public enum LottieLimits {
    /// Widest or tallest canvas, in pixels.
    public static let maxSide = 4096
    /// Largest canvas, in pixels (2048 x 2048): the render buffer is 4 bytes a pixel.
    public static let maxPixels = 2048 * 2048
    /// Most copies a repeater may make: rlottie draws each one, and a repeater of 10^8 copies
    /// keeps it busy for minutes.
    public static let maxRepeaterCopies = 1000
    /// Most frames rendered when an asset is measured whatever its limits (`reel splash check`).
    public static let maxMeasuredFrames = 3600
    /// Layer types rlottie draws: precomposition, solid, image, null, shape.
    public static let drawnLayerTypes: Set<Int> = [0, 1, 2, 3, 4]
}
