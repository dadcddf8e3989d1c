import CSDL2
import ReelCore
import ReelMedia

/// Textures of decoded pictures, by name (a card's video or its thumbnail), each at the size it
/// is drawn: a picture is scaled once when it arrives (`Picture.scaled`), not every frame by the
/// renderer. A video frame's YUV planes go into an IYUV texture (SDL converts them, BT.601 video
/// range); anything else (a JPEG thumbnail's full-range YUV, other layouts) as RGBA. A texture is
/// written again only when its picture or its size changes, and let go when nothing drew it for
/// a while.
final class PictureTextures {
    private struct Entry {
        var texture: OpaquePointer
        let width: Int
        let height: Int
        let yuv: Bool
        /// The picture in the texture now (held, so a new one is told apart by identity).
        var picture: Picture
        var used: Int
    }

    /// Frames a texture survives undrawn.
    static let keepFrames = 90

    private let renderer: OpaquePointer
    private var entries: [String: Entry] = [:]
    private var frame = 0
    /// Texture uploads so far (video frames and thumbnails).
    private(set) var uploads = 0

    init(renderer: OpaquePointer) {
        self.renderer = renderer
    }

    deinit {
        for entry in entries.values { SDL_DestroyTexture(entry.texture) }
    }

    /// Starts a frame: lets go of textures not drawn for `keepFrames` frames.
    func beginFrame() {
        frame += 1
        guard frame % 30 == 0 else { return }
        for (name, entry) in entries where frame - entry.used > Self.keepFrames {
            SDL_DestroyTexture(entry.texture)
            entries[name] = nil
        }
    }

    /// The texture showing `picture`, named `name`, for drawing at `width` x `height` pixels (a
    /// larger size keeps the picture's own: the renderer scales it up).
    func texture(_ name: String, _ picture: Picture, width: Int32, height: Int32) -> OpaquePointer? {
        let size = (width: max(1, min(picture.width, Int(width))), height: max(1, min(picture.height, Int(height))))
        let yuv = picture.format == .yuv420p(fullRange: false)
        if var entry = entries[name], entry.width == size.width, entry.height == size.height, entry.yuv == yuv {
            entry.used = frame
            if entry.picture !== picture {
                guard upload(picture, size: size, into: entry.texture, yuv: yuv) else { return nil }
                entry.picture = picture
            }
            entries[name] = entry
            return entry.texture
        }
        if let old = entries.removeValue(forKey: name) { SDL_DestroyTexture(old.texture) }
        let format = yuv ? SDL_PIXELFORMAT_IYUV.rawValue : SDL_PIXELFORMAT_ABGR8888.rawValue
        guard let texture = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                              Int32(size.width), Int32(size.height)) else { return nil }
        // Pictures are opaque: copied, not blended (the software renderer's blended copy is slow).
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        guard upload(picture, size: size, into: texture, yuv: yuv) else {
            SDL_DestroyTexture(texture)
            return nil
        }
        entries[name] = Entry(texture: texture, width: size.width, height: size.height, yuv: yuv, picture: picture, used: frame)
        return texture
    }

    private func upload(_ picture: Picture, size: (width: Int, height: Int), into texture: OpaquePointer, yuv: Bool) -> Bool {
        uploads += 1
        let sameSize = size.width == picture.width && size.height == picture.height
        if yuv {
            guard let shown = sameSize ? picture : try? picture.scaled(width: size.width, height: size.height) else { return false }
            return shown.withPlanes { planes in
                guard planes.count >= 3 else { return false }
                return SDL_UpdateYUVTexture(texture, nil, planes[0].base, Int32(planes[0].stride), planes[1].base, Int32(planes[1].stride),
                                            planes[2].base, Int32(planes[2].stride)) == 0
            }
        }
        guard let pixels = try? picture.rgba(width: size.width, height: size.height) else { return false }
        return pixels.withUnsafeBytes { SDL_UpdateTexture(texture, nil, $0.baseAddress, Int32(size.width * 4)) == 0 }
    }
}
