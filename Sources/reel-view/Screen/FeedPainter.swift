import CSDL2
import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia

/// One card as a frame drew it, for screenshots' records and the window's title.
struct DrawnCard: Sendable {
    enum Shows: String, Sendable {
        /// The player's latest decoded picture.
        case picture
        /// Its thumbnail (a merch card's image), the card not playing.
        case thumbnail
        /// Nothing loaded yet.
        case placeholder
    }

    let id: String
    /// The card's whole rectangle in pixels (it may be partly off screen).
    let rect: PixelRect
    let shows: Shows
    /// The shown picture's presentation time, for a video frame.
    let pictureTime: Double?
    let playing: Bool
}

/// Draws the feed as Reel lays it out: every widget and card where the engine's layout puts
/// them, at the screen's scroll offsets; a card's decoded picture while it plays (or holds its
/// last frame paused), its thumbnail otherwise; a spinner while a play waits for its first
/// frame, a stall marker while it stalls; the HUD's line on each card when asked.
struct FeedPainter {
    let screen: SDLScreen
    let text: TextRenderer
    let textures: PictureTextures

    /// Height of the tab bar at the bottom, points.
    static let tabBarHeight = 50.0
    /// Height of the short screen's top bar, points.
    static let topBarHeight = 44.0

    /// Draws the feed at `y` (and carousels at their offsets); returns the cards drawn.
    func drawFeed(_ snapshot: FeedSnapshot, y top: Double, carousels: [String: Double], viewport: Viewport, engine: FeedEngine,
                  hud: Bool, time: Double) -> [DrawnCard] {
        let layout = snapshot.layout, model = snapshot.model
        let screenRect = viewport.screen
        var drawn: [DrawnCard] = []
        let visible = layout.widgets(from: top, to: top + viewport.points.height)
        for widget in visible where widget < model.items.count {
            let item = model.items[widget]
            let frame = layout.frames[widget].offsetBy(y: -top)
            let cards = layout.cards(ofWidget: widget)
            switch item.content {
            case .short(let short)?:
                guard let number = cards.first else { continue }
                let box = layout.cardRects[number].offsetBy(y: -top)
                screen.fill(viewport.rect(box), .black)
                drawn.append(drawCard(item.cards[0].id, in: box, clip: screenRect, snapshot: snapshot, viewport: viewport,
                                      engine: engine, hud: hud, time: time, letterbox: true))
                drawCaption(short.title, short.comment, color: .secondary, under: box, in: frame,
                            titleHeight: layout.metrics.shortTitleHeight, viewport: viewport)
            case .carousel(let carousel)?:
                let left = viewport.rect(frame).x + viewport.pixels(12)
                text.draw(carousel.title, x: left, y: viewport.rect(0, frame.y + 3, 1, 1).y, size: 15, weight: .bold,
                          maxWidth: viewport.pixels(frame.width - 24))
                let offset = carousels[item.id] ?? 0
                let clip = viewport.rect(frame).intersection(screenRect)
                for (slot, number) in cards.enumerated() where slot < item.cards.count {
                    let rect = layout.cardRects[number].offsetBy(x: -offset, y: -top)
                    guard rect.maxX > frame.minX, rect.minX < frame.maxX else { continue }
                    drawn.append(drawCard(item.cards[slot].id, in: rect, clip: clip, snapshot: snapshot, viewport: viewport,
                                          engine: engine, hud: hud, time: time, letterbox: true))
                }
            case .merch(let merch)?:
                guard let number = cards.first else { continue }
                let image = layout.cardRects[number].offsetBy(y: -top)
                drawn.append(drawCard(item.cards[0].id, in: image, clip: screenRect, snapshot: snapshot, viewport: viewport,
                                      engine: engine, hud: hud, time: time, letterbox: false))
                drawCaption(merch.title, merch.footer, color: .accent, under: image, in: frame,
                            titleHeight: layout.metrics.merchTitleHeight, viewport: viewport)
            case nil:
                continue
            }
        }
        if snapshot.model.items.isEmpty, snapshot.phase == .shown {
            let size = text.measure("Loading the feed…", size: 15)
            text.draw("Loading the feed…", x: screenRect.x + (screenRect.w - size.width) / 2, y: screenRect.y + screenRect.h / 2,
                      size: 15, color: .secondary)
        }
        return drawn
    }

    /// A title line and a second line (a comment, a footer) under a card's media, in its widget's
    /// frame.
    private func drawCaption(_ title: String, _ second: String, color: Color, under media: Rect, in frame: Rect, titleHeight: Double,
                             viewport: Viewport) {
        let left = viewport.rect(frame).x + viewport.pixels(12), width = viewport.pixels(frame.width - 24)
        text.draw(title, x: left, y: viewport.rect(0, media.maxY + 3, 1, 1).y, size: 15, weight: .bold, maxWidth: width)
        text.draw(second, x: left, y: viewport.rect(0, media.maxY + titleHeight + 1, 1, 1).y, size: 13, color: color, maxWidth: width)
    }

    /// Draws one short alone, full screen (the navigation stack's pushed screen).
    func drawShort(_ id: String, snapshot: FeedSnapshot, viewport: Viewport, engine: FeedEngine, hud: Bool, time: Double) -> [DrawnCard] {
        let points = viewport.points
        screen.fill(viewport.screen, .black)
        let area = Rect(x: 0, y: Self.topBarHeight, width: points.width, height: points.height - Self.topBarHeight - Self.tabBarHeight - 56)
        let card = drawCard(id, in: area, clip: viewport.screen, snapshot: snapshot, viewport: viewport, engine: engine, hud: hud,
                            time: time, letterbox: true)
        text.draw("‹ Feed", x: viewport.rect(0, 0, 1, 1).x + viewport.pixels(12), y: viewport.rect(0, 12, 1, 1).y, size: 17,
                  weight: .bold, color: .text)
        if let ref = snapshot.model.card(id: id), case .short(let short)? = snapshot.model.items[ref.widget].content {
            let left = viewport.rect(0, 0, 1, 1).x + viewport.pixels(16), width = viewport.pixels(points.width - 32)
            let bottom = points.height - Self.tabBarHeight - 54
            text.draw(short.title, x: left, y: viewport.rect(0, bottom, 1, 1).y, size: 17, weight: .bold, maxWidth: width)
            text.draw(short.comment, x: left, y: viewport.rect(0, bottom + 26, 1, 1).y, size: 14, color: .secondary, maxWidth: width)
        }
        return [card]
    }

    /// The tab bar: one tab, the feed's.
    func drawTabBar(viewport: Viewport) {
        let points = viewport.points
        let bar = viewport.rect(0, points.height - Self.tabBarHeight, points.width, Self.tabBarHeight)
        screen.fill(bar, Color.surface.with(alpha: 240))
        screen.fill(PixelRect(x: bar.x, y: bar.y, w: bar.w, h: max(1, viewport.pixels(0.5))), Color.secondary.with(alpha: 90))
        let label = "⌂  Feed"
        let size = text.measure(label, size: 14, weight: .bold)
        text.draw(label, x: bar.x + (bar.w - size.width) / 2, y: bar.y + (bar.h - size.height) / 2, size: 14, weight: .bold, color: .accent)
    }

    // MARK: - Cards

    /// Draws a card into `rect` (points on the screen), clipped to `clip`.
    private func drawCard(_ id: String, in rect: Rect, clip: PixelRect, snapshot: FeedSnapshot, viewport: Viewport,
                          engine: FeedEngine, hud: Bool, time: Double, letterbox: Bool) -> DrawnCard {
        let pixels = viewport.rect(rect)
        let card = snapshot.card(id)
        screen.clip(clip)
        defer { screen.clip(nil) }
        var shows = DrawnCard.Shows.placeholder
        var pictureTime: Double?
        if card.mounted, let picture = engine.picture(card: id), case let fitted = Self.fit(picture.width, picture.height, into: pixels),
           let texture = textures.texture("v:\(id)", picture, width: fitted.w, height: fitted.h) {
            screen.fill(pixels, .black)
            screen.copy(texture, to: fitted)
            shows = .picture
            pictureTime = picture.time
        } else if let picture = engine.thumbnail(card: id),
                  case let fitted = letterbox ? Self.fit(picture.width, picture.height, into: pixels) : pixels,
                  let texture = textures.texture("t:\(id)", picture, width: fitted.w, height: fitted.h) {
            if letterbox { screen.fill(pixels, .black) }
            screen.copy(texture, to: fitted)
            shows = .thumbnail
        } else {
            screen.fill(pixels, .placeholder)
        }
        if card.waitingForFirstFrame { drawSpinner(in: pixels, viewport: viewport, time: time) }
        if card.stalled { drawStall(in: pixels, viewport: viewport) }
        if hud { drawLabel(card, in: pixels, viewport: viewport) }
        return DrawnCard(id: id, rect: pixels, shows: shows, pictureTime: pictureTime, playing: card.playing)
    }

    /// A picture of `width` x `height` fitted into `rect`, centred.
    static func fit(_ width: Int, _ height: Int, into rect: PixelRect) -> PixelRect {
        guard width > 0, height > 0 else { return rect }
        let scale = min(Double(rect.w) / Double(width), Double(rect.h) / Double(height))
        let w = Int32((Double(width) * scale).rounded()), h = Int32((Double(height) * scale).rounded())
        return PixelRect(x: rect.x + (rect.w - w) / 2, y: rect.y + (rect.h - h) / 2, w: w, h: h)
    }

    /// Eight dots turning around the card's centre.
    private func drawSpinner(in rect: PixelRect, viewport: Viewport, time: Double) {
        let radius = Double(viewport.pixels(16)), dot = max(2, viewport.pixels(5))
        let centreX = Double(rect.x) + Double(rect.w) / 2, centreY = Double(rect.y) + Double(rect.h) / 2
        let lit = Int(time * 10) % 8
        for index in 0..<8 {
            let angle = Double(index) / 8 * 2 * Double.pi
            let age = (lit - index + 8) % 8
            let alpha = UInt8(max(60, 255 - age * 28))
            let x = Int32((centreX + cos(angle) * radius).rounded()) - dot / 2
            let y = Int32((centreY + sin(angle) * radius).rounded()) - dot / 2
            screen.fill(PixelRect(x: x, y: y, w: dot, h: dot), Color.white.with(alpha: alpha))
        }
    }

    /// A dimmed card with a red "stalled" badge.
    private func drawStall(in rect: PixelRect, viewport: Viewport) {
        screen.fill(rect, Color.black.with(alpha: 90))
        let label = "stalled"
        let size = text.measure(label, size: 11, weight: .bold)
        let pad = viewport.pixels(4)
        let badge = PixelRect(x: rect.x + pad, y: rect.y + pad, w: size.width + 2 * pad, h: size.height + pad)
        screen.fill(badge, .accent)
        text.draw(label, x: badge.x + pad, y: badge.y + pad / 2, size: 11, weight: .bold, color: .white)
    }

    /// The card's state, preload stage and last time to first frame, along its bottom (on two
    /// lines when the card is narrow).
    private func drawLabel(_ card: FeedSnapshot.Card, in rect: PixelRect, viewport: Viewport) {
        let ttff = card.lastTTFFMs.map { String(format: "%.0f ms", $0) } ?? "-"
        let pad = viewport.pixels(4)
        let whole = "\(card.state.rawValue) · \(card.stage) · \(ttff)"
        let lines = text.measure(whole, size: 10, weight: .mono).width <= rect.w - 2 * pad
            ? [whole] : [card.state.rawValue, "\(card.stage) · \(ttff)"]
        let lineHeight = text.measure(whole, size: 10, weight: .mono).height
        let height = lineHeight * Int32(lines.count) + pad
        let strip = PixelRect(x: rect.x, y: rect.y + rect.h - height, w: rect.w, h: height)
        screen.fill(strip, .hud)
        for (index, line) in lines.enumerated() {
            text.draw(line, x: strip.x + pad, y: strip.y + pad / 2 + Int32(index) * lineHeight, size: 10, weight: .mono, color: .white,
                      maxWidth: strip.w - 2 * pad)
        }
    }
}

extension Rect {
    func offsetBy(x dx: Double = 0, y dy: Double = 0) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
}
