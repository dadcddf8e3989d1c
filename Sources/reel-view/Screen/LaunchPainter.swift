import CSDL2
import Foundation
import ReelCore
import ReelSplash
import ReelFeed
import ReelLaunch

/// Draws the launch window: a splash's frames (drawn by rlottie, uploaded as they change) with
/// "Tap to dismiss", or the loading animation's cycles and fade.
final class LaunchPainter {
    private let screen: SDLScreen
    private let text: TextRenderer
    private var texture: OpaquePointer?
    private var textureSize = (width: 0, height: 0)
    private var uploaded = -1
    /// Splash frames shown (distinct frames uploaded).
    private(set) var framesShown = 0

    init(screen: SDLScreen, text: TextRenderer) {
        self.screen = screen
        self.text = text
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
    }

    /// The splash `seconds` into it, fitted to the screen.
    func drawSplash(_ splash: SplashAnimation, at seconds: Double, viewport: Viewport) {
        screen.fill(viewport.screen, .black)
        if let (index, image) = splash.frame(at: seconds) {
            if texture == nil || textureSize != (image.width, image.height) {
                if let texture { SDL_DestroyTexture(texture) }
                texture = SDL_CreateTexture(screen.renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                            Int32(image.width), Int32(image.height))
                if let texture { SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND) }
                textureSize = (image.width, image.height)
                uploaded = -1
            }
            if let texture {
                if uploaded != index {
                    image.pixels.withUnsafeBytes { _ = SDL_UpdateTexture(texture, nil, $0.baseAddress, Int32(image.width * 4)) }
                    uploaded = index
                    framesShown += 1
                }
                screen.copy(texture, to: FeedPainter.fit(image.width, image.height, into: viewport.screen))
            }
        }
        let label = "Tap to dismiss"
        let size = text.measure(label, size: 14, weight: .bold)
        let bottom = viewport.rect(0, viewport.points.height - 64, 1, 1).y
        let pad = viewport.pixels(8)
        let area = viewport.screen
        let pill = PixelRect(x: area.x + (area.w - size.width) / 2 - pad, y: bottom - pad / 2, w: size.width + 2 * pad, h: size.height + pad)
        screen.fill(pill, Color.black.with(alpha: 150))
        text.draw(label, x: pill.x + pad, y: bottom, size: 14, weight: .bold, color: .white)
    }

    /// The loading animation `seconds` into a cycle of `cycleSeconds`, at `opacity` (its fade).
    func drawLoading(at seconds: Double, cycleSeconds: Double, opacity: Double, viewport: Viewport) {
        let alpha = UInt8(max(0, min(255, opacity * 255)))
        screen.fill(viewport.screen, Color.background.with(alpha: alpha))
        let area = viewport.screen
        let title = "Reel"
        let size = text.measure(title, size: 40, weight: .bold)
        let centreY = area.y + area.h / 2
        text.draw(title, x: area.x + (area.w - size.width) / 2, y: centreY - size.height - viewport.pixels(12), size: 40,
                  weight: .bold, color: .accent, alpha: alpha)
        // Twelve dots; one lap per cycle.
        let progress = (seconds / max(0.001, cycleSeconds)).truncatingRemainder(dividingBy: 1)
        let radius = Double(viewport.pixels(18)), dot = max(2, viewport.pixels(5))
        let centreX = Double(area.x) + Double(area.w) / 2, ringY = Double(centreY + viewport.pixels(30))
        let lit = Int(progress * 12)
        for index in 0..<12 {
            let angle = Double(index) / 12 * 2 * Double.pi - Double.pi / 2
            let age = (lit - index + 12) % 12
            let shade = Double(max(50, 255 - age * 18)) * opacity
            let x = Int32((centreX + cos(angle) * radius).rounded()) - dot / 2
            let y = Int32((ringY + sin(angle) * radius).rounded()) - dot / 2
            screen.fill(PixelRect(x: x, y: y, w: dot, h: dot), Color.white.with(alpha: UInt8(shade)))
        }
    }
}
