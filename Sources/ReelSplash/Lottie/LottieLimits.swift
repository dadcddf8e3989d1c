/// Bounds Reel puts on a Lottie document before rlottie sees it, so a hostile or broken asset
/// costs bounded memory and time (rlottie has no way to stop a render midway). They bound what
/// drawing the document costs, not each field alone: copies multiply through nested repeaters
/// and precompositions, and every matte or mask keeps a buffer of the canvas.
public enum LottieLimits {
    /// Widest or tallest canvas, in pixels.
    public static let maxSide = 4096
    /// Largest canvas, in pixels (2048 x 2048): the render buffer is 4 bytes a pixel.
    public static let maxPixels = 2048 * 2048
    /// Most copies one repeater may make.
    public static let maxRepeaterCopies = 1000
    /// Most shapes (rectangles, ellipses, stars, paths) drawn a frame, counting every copy nested
    /// repeaters make and every instance of a precomposition: rlottie builds and draws each one,
    /// and three nested repeaters of 1,000 copies ask for 10^9.
    public static let maxShapes = 20_000
    /// Most layers after precompositions are expanded (a precomposition layer counts the layers
    /// it references, each time it references them).
    public static let maxLayers = 5_000
    /// Deepest chain of precompositions referencing precompositions (rlottie recurses through it).
    public static let maxPrecompositionDepth = 64
    /// Most bytes of matte and mask buffers: rlottie keeps one canvas-sized ARGB buffer (4 bytes
    /// a pixel) for each matte layer, matted layer and mask.
    public static let maxBufferBytes = 256 << 20
    /// Most area solids and images paint a frame, in canvases (each instance counts its size,
    /// at most one canvas).
    public static let maxPaintedCanvases = 50
    /// Most pixels of all embedded images decoded (rlottie decodes each one at load, 4 bytes a
    /// pixel), read from the PNG or JPEG header.
    public static let maxImagePixels = 2 * maxPixels
    /// Most points of one star or polygon (the one shape whose size is a number, not its data).
    public static let maxStarPoints = 1000
    /// Widest stroke, in pixels, after the scales of its groups, repeaters, layer, parents and
    /// precompositions: rlottie's stroker never returns from strokes some 34,000 pixels wide, and
    /// one wider than the widest canvas paints nothing a fill would not.
    public static let maxStrokeWidth = 4096.0
    /// Most frames rendered when an asset is measured whatever its limits (`reel splash check`).
    public static let maxMeasuredFrames = 3600
    /// Longest one frame may take to draw before the check stops: a frame a quarter of a second
    /// long freezes a splash of at most a few seconds, whatever the other frames do.
    public static let maxFrameSeconds = 0.25
    /// Layer types rlottie draws: precomposition, solid, image, null, shape.
    public static let drawnLayerTypes: Set<Int> = [0, 1, 2, 3, 4]
}
