/// A picture as 8-bit RGBA with straight (not premultiplied) alpha, rows top to bottom without
/// padding: what a PNG encoder takes.
public struct RGBAImage: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Pixels that are not fully transparent.
    public var coveredPixels: Int {
        stride(from: 3, to: pixels.count, by: 4).reduce(0) { $0 + (pixels[$1] != 0 ? 1 : 0) }
    }

    /// Distinct colours of the covered pixels, counted up to `limit`.
    public func distinctColors(limit: Int = 1024) -> Int {
        var seen: Set<UInt32> = []
        var index = 0
        while index + 3 < pixels.count, seen.count < limit {
            if pixels[index + 3] != 0 {
                seen.insert(UInt32(pixels[index]) << 24 | UInt32(pixels[index + 1]) << 16 | UInt32(pixels[index + 2]) << 8 | UInt32(pixels[index + 3]))
            }
            index += 4
        }
        return seen.count
    }

    /// The picture from rlottie's premultiplied ARGB32 pixels (one `UInt32` each, alpha on top).
    init(premultipliedARGB buffer: [UInt32], width: Int, height: Int) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) {
            let pixel = buffer[index]
            let alpha = Int(pixel >> 24)
            guard alpha > 0 else { continue }
            func straight(_ channel: UInt32) -> UInt8 {
                UInt8(min(255, (Int(channel & 0xFF) * 255 + alpha / 2) / alpha))
            }
            pixels[index * 4] = straight(pixel >> 16)
            pixels[index * 4 + 1] = straight(pixel >> 8)
            pixels[index * 4 + 2] = straight(pixel)
            pixels[index * 4 + 3] = UInt8(alpha)
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}
