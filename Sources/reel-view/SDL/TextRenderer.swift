import CSDL2
import CSDL2TTF
import Foundation
import ReelCore
import ReelManifest

/// Text drawn with SDL_ttf in DejaVu Sans (Debian's fonts-dejavu-core), each string rendered once
/// into a texture and kept while it is used (titles every frame, the HUD's figures as they
/// change). Sizes are in points; the fonts are opened at the screen's pixels per point.
final class TextRenderer {
    enum Weight: Hashable { case regular, bold, mono }

    private struct Key: Hashable {
        let text: String
        let size: Double
        let weight: Weight
        let color: Color
    }

    private struct Entry {
        let texture: OpaquePointer
        let width: Int32
        let height: Int32
        var used: Int
    }

    /// The folder Debian installs DejaVu into.
    static let fontFolder = "/usr/share/fonts/truetype/dejavu"
    private static let files: [Weight: String] = [.regular: "DejaVuSans.ttf", .bold: "DejaVuSans-Bold.ttf", .mono: "DejaVuSansMono.ttf"]
    /// Textures kept at most.
    private static let capacity = 400

    private let renderer: OpaquePointer
    private(set) var scale: Double
    private var fonts: [String: OpaquePointer] = [:]
    private var entries: [Key: Entry] = [:]
    private var frame = 0

    init(renderer: OpaquePointer, scale: Double) throws {
        guard TTF_Init() == 0 else { throw ReelError(.internalFailure, "SDL_ttf cannot start: \(SDLScreen.lastError)") }
        for (_, file) in Self.files where !FileManager.default.fileExists(atPath: "\(Self.fontFolder)/\(file)") {
            throw ReelError(.notFound, "no font '\(Self.fontFolder)/\(file)': install Debian's fonts-dejavu-core")
        }
        self.renderer = renderer
        self.scale = scale
    }

    deinit {
        for entry in entries.values { SDL_DestroyTexture(entry.texture) }
        for font in fonts.values { TTF_CloseFont(font) }
        TTF_Quit()
    }

    /// Drops every texture and font when the screen's pixels per point change.
    func setScale(_ scale: Double) {
        guard scale != self.scale else { return }
        self.scale = scale
        for entry in entries.values { SDL_DestroyTexture(entry.texture) }
        entries = [:]
        for font in fonts.values { TTF_CloseFont(font) }
        fonts = [:]
    }

    /// Starts a frame: textures unused for a while may go.
    func beginFrame() { frame += 1 }

    /// The size of `text` in pixels.
    func measure(_ text: String, size: Double, weight: Weight = .regular) -> (width: Int32, height: Int32) {
        guard !text.isEmpty, let font = font(size: size, weight: weight) else { return (0, 0) }
        var width: Int32 = 0, height: Int32 = 0
        TTF_SizeUTF8(font, text, &width, &height)
        return (width, height)
    }

    /// Draws `text` with its top-left corner at `x`, `y` (pixels), cut with "…" to `maxWidth`
    /// pixels when given; returns the width drawn.
    @discardableResult
    func draw(_ text: String, x: Int32, y: Int32, size: Double, weight: Weight = .regular, color: Color = .text,
              maxWidth: Int32? = nil, alpha: UInt8 = 255) -> Int32 {
        let shown = maxWidth.map { fit(text, width: $0, size: size, weight: weight) } ?? text
        guard !shown.isEmpty, let entry = texture(Key(text: shown, size: size, weight: weight, color: color)) else { return 0 }
        SDL_SetTextureAlphaMod(entry.texture, alpha)
        var destination = SDL_Rect(x: x, y: y, w: entry.width, h: entry.height)
        SDL_RenderCopy(renderer, entry.texture, nil, &destination)
        return entry.width
    }

    /// `text` cut with "…" so it fits `width` pixels.
    private func fit(_ text: String, width: Int32, size: Double, weight: Weight) -> String {
        if measure(text, size: size, weight: weight).width <= width { return text }
        var characters = Array(text)
        while !characters.isEmpty {
            characters.removeLast()
            let candidate = String(characters) + "…"
            if measure(candidate, size: size, weight: weight).width <= width { return candidate }
        }
        return ""
    }

    private func font(size: Double, weight: Weight) -> OpaquePointer? {
        let pixels = max(6, Int32((size * scale).rounded()))
        let key = "\(weight)-\(pixels)"
        if let font = fonts[key] { return font }
        guard let file = Self.files[weight], let font = TTF_OpenFont("\(Self.fontFolder)/\(file)", pixels) else { return nil }
        fonts[key] = font
        return font
    }

    private func texture(_ key: Key) -> Entry? {
        if let entry = entries[key] {
            entries[key]?.used = frame
            return entry
        }
        guard let font = font(size: key.size, weight: key.weight),
              let surface = TTF_RenderUTF8_Blended(font, key.text, SDL_Color(r: key.color.r, g: key.color.g, b: key.color.b, a: key.color.a))
        else { return nil }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        if entries.count >= Self.capacity { evict() }
        let entry = Entry(texture: texture, width: surface.pointee.w, height: surface.pointee.h, used: frame)
        entries[key] = entry
        return entry
    }

    /// Lets the textures least recently drawn go, half of them.
    private func evict() {
        let order = entries.sorted { $0.value.used < $1.value.used }
        for (key, entry) in order.prefix(entries.count / 2) {
            SDL_DestroyTexture(entry.texture)
            entries[key] = nil
        }
    }
}
