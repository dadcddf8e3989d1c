import CSDL2
import Foundation
import ReelCore

/// An RGBA colour.
struct Color: Sendable, Equatable, Hashable {
    var r: UInt8
    var g: UInt8
    var b: UInt8
    var a: UInt8 = 255

    static let background = Color(r: 16, g: 16, b: 18)
    static let surface = Color(r: 34, g: 34, b: 38)
    static let placeholder = Color(r: 52, g: 52, b: 58)
    static let text = Color(r: 236, g: 236, b: 240)
    static let secondary = Color(r: 150, g: 150, b: 160)
    static let accent = Color(r: 255, g: 64, b: 96)
    static let hud = Color(r: 0, g: 0, b: 0, a: 170)
    static let black = Color(r: 0, g: 0, b: 0)
    static let white = Color(r: 255, g: 255, b: 255)

    func with(alpha: UInt8) -> Color { Color(r: r, g: g, b: b, a: alpha) }
}

/// A rectangle in output pixels.
struct PixelRect: Equatable {
    var x: Int32
    var y: Int32
    var w: Int32
    var h: Int32

    var sdl: SDL_Rect { SDL_Rect(x: x, y: y, w: w, h: h) }
    var isEmpty: Bool { w <= 0 || h <= 0 }

    /// The part of `self` inside `other`.
    func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + w, other.x + other.w), bottom = min(y + h, other.y + other.h)
        return PixelRect(x: left, y: top, w: max(0, right - left), h: max(0, bottom - top))
    }
}

/// The viewer's window and its renderer (SDL2), and the few drawing calls the screens use. Lives
/// on the main thread: SDL's video calls are made from the thread that opened the window.
final class SDLScreen {
    let window: OpaquePointer
    let renderer: OpaquePointer
    /// The video driver SDL runs ("x11", "offscreen") and its renderer's name ("software").
    let videoDriver: String
    let rendererName: String

    /// Opens a window of `width` x `height` pixels titled `title`; `driver` picks SDL's renderer.
    init(title: String, width: Int, height: Int, offscreen: Bool, renderer driver: String) throws {
        if offscreen { setenv("SDL_VIDEODRIVER", "offscreen", 1) }
        // Pictures are scaled into their cards: smooth, not blocky.
        SDL_SetHint("SDL_RENDER_SCALE_QUALITY", "1")
        SDL_SetHint("SDL_RENDER_DRIVER", driver)
        // The software renderer draws into the window's own framebuffer (shared memory on X11),
        // not into a texture of a second, GL renderer: under Xvfb and offscreen that one is Mesa's
        // llvmpipe, two more threads drawing on the CPU.
        if driver == "software" { SDL_SetHint("SDL_FRAMEBUFFER_ACCELERATION", "0") }
        // The viewer runs until it is told to stop; a signal must reach the Swift side too.
        SDL_SetHint("SDL_NO_SIGNAL_HANDLERS", "1")
        guard SDL_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) == 0 else {
            throw ReelError(.internalFailure, "SDL cannot start its video (\(Self.lastError)): run it on a display, under Xvfb, or with --offscreen")
        }
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        let centred = reel_shim_sdl_windowpos_centered()
        guard let window = SDL_CreateWindow(title, centred, centred, Int32(width), Int32(height), flags) else {
            let message = Self.lastError
            SDL_Quit()
            throw ReelError(.internalFailure, "SDL cannot open a \(width)x\(height) window: \(message)")
        }
        var made = SDL_CreateRenderer(window, -1, 0)
        if made == nil {
            // The renderer asked for is missing here: the software one always is.
            SDL_SetHint("SDL_RENDER_DRIVER", "software")
            made = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        }
        guard let renderer = made else {
            let message = Self.lastError
            SDL_DestroyWindow(window)
            SDL_Quit()
            throw ReelError(.internalFailure, "SDL has no renderer for the window: \(message)")
        }
        self.window = window
        self.renderer = renderer
        videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        var info = SDL_RendererInfo()
        rendererName = SDL_GetRendererInfo(renderer, &info) == 0 && info.name != nil ? String(cString: info.name) : "unknown"
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        // H.264 without colour tags is BT.601 video range, as FFmpeg converts it.
        SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT601)
    }

    deinit {
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    static var lastError: String { String(cString: SDL_GetError()) }

    /// The drawable's size in pixels.
    var pixelSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        return (Int(width), Int(height))
    }

    func clear(_ color: Color) {
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, color.a)
        SDL_RenderClear(renderer)
    }

    func fill(_ rect: PixelRect, _ color: Color) {
        guard !rect.isEmpty else { return }
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, color.a)
        var sdl = rect.sdl
        SDL_RenderFillRect(renderer, &sdl)
    }

    /// A rectangle's outline, `thickness` pixels wide, inside it.
    func outline(_ rect: PixelRect, _ color: Color, thickness: Int32 = 1) {
        fill(PixelRect(x: rect.x, y: rect.y, w: rect.w, h: thickness), color)
        fill(PixelRect(x: rect.x, y: rect.y + rect.h - thickness, w: rect.w, h: thickness), color)
        fill(PixelRect(x: rect.x, y: rect.y, w: thickness, h: rect.h), color)
        fill(PixelRect(x: rect.x + rect.w - thickness, y: rect.y, w: thickness, h: rect.h), color)
    }

    /// Draws `texture` (all of it) into `rect`, clipped to `clip` when given.
    func copy(_ texture: OpaquePointer, to rect: PixelRect, clip: PixelRect? = nil, alpha: UInt8 = 255) {
        guard !rect.isEmpty else { return }
        if let clip {
            var sdl = clip.sdl
            SDL_RenderSetClipRect(renderer, &sdl)
        }
        if alpha < 255 { SDL_SetTextureAlphaMod(texture, alpha) }
        var destination = rect.sdl
        SDL_RenderCopy(renderer, texture, nil, &destination)
        if clip != nil { SDL_RenderSetClipRect(renderer, nil) }
    }

    /// Limits drawing to `rect` (nil: the whole window) until the next call.
    func clip(_ rect: PixelRect?) {
        if var sdl = rect?.sdl {
            SDL_RenderSetClipRect(renderer, &sdl)
        } else {
            SDL_RenderSetClipRect(renderer, nil)
        }
    }

    func present() { SDL_RenderPresent(renderer) }

    func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

    /// What the renderer drew so far this frame, as RGBA rows without padding. The
    /// corresponding C function is `SDL_RenderReadPixels`.
    func readPixels() throws -> (pixels: [UInt8], width: Int, height: Int) {
        let (width, height) = pixelSize
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBytes { buffer in
            SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ABGR8888.rawValue, buffer.baseAddress, Int32(width * 4))
        }
        guard status == 0 else { throw ReelError(.internalFailure, "SDL cannot read the window's pixels: \(Self.lastError)") }
        return (pixels, width, height)
    }
}
