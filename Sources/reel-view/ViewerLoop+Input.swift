import CSDL2
import Foundation
import Logging
import ReelCore
import ReelEngine
import ReelFeed

/// Input as on a phone: the pointer is a finger (press, drag, release; a press that does not
/// move is a tap), the wheel and touchpad scroll, and keys stand for the rest.
extension ViewerLoop {
    /// Takes every pending event; false when the user asked to quit.
    func pumpEvents(at time: Double) -> Bool {
        var event = SDL_Event()
        var keepGoing = true
        while SDL_PollEvent(&event) != 0 {
            if !handle(event, at: time) { keepGoing = false }
        }
        return keepGoing
    }

    private func handle(_ event: SDL_Event, at time: Double) -> Bool {
        switch SDL_EventType(rawValue: event.type) {
        case SDL_QUIT:
            return false
        case SDL_KEYDOWN:
            counts.keys += 1
            return key(event.key.keysym.sym, at: time)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            pointerDown = true
            press(at: pointer(Int(event.button.x), Int(event.button.y)), time: time)
        case SDL_MOUSEMOTION where pointerDown:
            let point = pointer(Int(event.motion.x), Int(event.motion.y))
            if trace == nil, feedShownAt != nil, route == .feed, let layout = feed?.engine.snapshot.layout {
                scroll.move(x: point.x, y: point.y, at: time, layout: layout)
            }
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            pointerDown = false
            release(at: pointer(Int(event.button.x), Int(event.button.y)), time: time)
        case SDL_MOUSEWHEEL:
            counts.wheel += 1
            guard trace == nil, feedShownAt != nil, route == .feed, let layout = feed?.engine.snapshot.layout else { break }
            let flip: Float = event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            let point = pointer(Int(x), Int(y))
            scroll.wheel(dx: Double(event.wheel.preciseX * flip), dy: Double(event.wheel.preciseY * flip), at: time,
                         carousel: carousel(at: point, layout: layout), layout: layout)
        case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue):
            let size = screen.pixelSize
            viewport.fit(width: size.width, height: size.height)
            text.setScale(viewport.scale)
        default:
            break
        }
        return true
    }

    /// A window position (SDL's window coordinates) as points on the screen.
    private func pointer(_ x: Int, _ y: Int) -> (x: Double, y: Double) {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetWindowSize(screen.window, &width, &height)
        let pixels = screen.pixelSize
        let ratioX = width > 0 ? Double(pixels.width) / Double(width) : 1
        let ratioY = height > 0 ? Double(pixels.height) / Double(height) : 1
        return viewport.point(pixelX: Double(x) * ratioX, pixelY: Double(y) * ratioY)
    }

    // MARK: - Keys

    private func key(_ key: SDL_Keycode, at time: Double) -> Bool {
        switch key {
        case SDL_Keycode(SDLK_q.rawValue):
            return false
        case SDL_Keycode(SDLK_ESCAPE.rawValue), SDL_Keycode(SDLK_BACKSPACE.rawValue), SDL_Keycode(SDLK_AC_BACK.rawValue):
            // Back; from the feed itself, out of the app.
            if case .short = route {
                route = .feed
                return true
            }
            return key == SDL_Keycode(SDLK_BACKSPACE.rawValue)
        case SDL_Keycode(SDLK_h.rawValue):
            hud.toggle()
        case SDL_Keycode(SDLK_m.rawValue):
            toast = (sound.toggle(at: time), time + 2.5)
        case SDL_Keycode(SDLK_SPACE.rawValue):
            playOrPause()
        case SDL_Keycode(SDLK_DOWN.rawValue), SDL_Keycode(SDLK_j.rawValue):
            moveWidgets(1, at: time)
        case SDL_Keycode(SDLK_UP.rawValue), SDL_Keycode(SDLK_k.rawValue):
            moveWidgets(-1, at: time)
        case SDL_Keycode(SDLK_RIGHT.rawValue), SDL_Keycode(SDLK_l.rawValue):
            swipeCarousel(1, at: time)
        case SDL_Keycode(SDLK_LEFT.rawValue):
            swipeCarousel(-1, at: time)
        default:
            break
        }
        return true
    }

    private func moveWidgets(_ count: Int, at time: Double) {
        guard trace == nil, feedShownAt != nil, route == .feed, let layout = feed?.engine.snapshot.layout else { return }
        scroll.step(widgets: count, at: time, layout: layout)
    }

    /// Pages the first carousel on the screen.
    private func swipeCarousel(_ cards: Int, at time: Double) {
        guard trace == nil, feedShownAt != nil, route == .feed, let snapshot = feed?.engine.snapshot else { return }
        let layout = snapshot.layout
        let visible = layout.widgets(from: scroll.y, to: scroll.y + layout.viewport.height)
        guard let index = visible.first(where: { layout.types[$0] == .carousel }), index < snapshot.model.items.count else { return }
        scroll.page(carousel: (snapshot.model.items[index].id, index), by: cards, at: time, layout: layout)
    }

    /// Space: pauses what plays, or plays the card shown largest.
    private func playOrPause() {
        guard let engine = feed?.engine, feedShownAt != nil else { return }
        let snapshot = engine.snapshot
        if case .short(let id) = route {
            if snapshot.card(id).playing { engine.pause(card: id) } else { engine.tap(card: id) }
            return
        }
        if let playing = lastDrawn.first(where: { snapshot.card($0.id).playing }) {
            engine.pause(card: playing.id)
            return
        }
        let screenRect = viewport.screen
        let candidates = lastDrawn.filter { card in
            snapshot.model.card(id: card.id).flatMap { snapshot.model.video(of: $0) } != nil
        }
        let largest = candidates.max { a, b in
            let left = a.rect.intersection(screenRect), right = b.rect.intersection(screenRect)
            return Int(left.w) * Int(left.h) < Int(right.w) * Int(right.h)
        }
        if let largest { engine.tap(card: largest.id) }
    }

    // MARK: - Pointer

    private func press(at point: (x: Double, y: Double), time: Double) {
        if case .launching(.splash, _, _) = phase {
            // Tap to dismiss.
            splashDismissed = true
            return
        }
        guard trace == nil, feedShownAt != nil, route == .feed, let layout = feed?.engine.snapshot.layout else { return }
        scroll.press(x: point.x, y: point.y, at: time, carousel: carousel(at: point, layout: layout))
    }

    private func release(at point: (x: Double, y: Double), time: Double) {
        guard trace == nil, feedShownAt != nil, let feed else { return }
        let snapshot = feed.engine.snapshot
        let tabBar = viewport.points.height - FeedPainter.tabBarHeight
        switch route {
        case .short(let id):
            counts.clicks += 1
            if point.y < FeedPainter.topBarHeight || point.y >= tabBar {
                route = .feed
            } else if snapshot.card(id).playing {
                feed.engine.pause(card: id)
            } else {
                feed.engine.tap(card: id)
            }
        case .feed:
            let wasDragging = scroll.isMoving
            guard let click = scroll.release(x: point.x, y: point.y, at: time, layout: snapshot.layout) else {
                if wasDragging { counts.drags += 1 }
                return
            }
            counts.clicks += 1
            if click.y >= tabBar {
                scroll.ease(to: 0, at: time)
                return
            }
            guard let hit = card(at: (click.x, click.y), snapshot: snapshot) else { return }
            switch hit.type {
            case .short:
                feed.engine.tap(card: hit.id)
                // A low-end device plays it where it is; otherwise it opens alone.
                if !feed.config.device.isLowEnd { route = .short(hit.id) }
            case .carousel:
                feed.engine.tap(card: hit.id)
            case .merch:
                break
            }
        }
    }

    /// The carousel under a point on the screen: its widget id and position.
    func carousel(at point: (x: Double, y: Double), layout: FeedLayout) -> (id: String, index: Int)? {
        guard let snapshot = feed?.engine.snapshot else { return nil }
        let y = scroll.y + point.y
        let index = layout.firstWidget(below: y)
        guard index < layout.count, index < snapshot.model.items.count, layout.types[index] == .carousel,
              layout.frames[index].minY <= y, layout.frames[index].minX <= point.x, point.x < layout.frames[index].maxX else { return nil }
        return (snapshot.model.items[index].id, index)
    }

    /// The card under a point on the screen.
    private func card(at point: (x: Double, y: Double), snapshot: FeedSnapshot) -> (id: String, type: WidgetType)? {
        let layout = snapshot.layout
        let y = scroll.y + point.y
        let index = layout.firstWidget(below: y)
        guard index < layout.count, index < snapshot.model.items.count, let type = layout.types[index] else { return nil }
        let item = snapshot.model.items[index]
        let offset = type == .carousel ? scroll.carousels[item.id] ?? 0 : 0
        for (slot, number) in layout.cards(ofWidget: index).enumerated() where slot < item.cards.count {
            let rect = layout.cardRects[number]
            if rect.minY <= y, y < rect.maxY, rect.minX - offset <= point.x, point.x < rect.maxX - offset {
                return (item.cards[slot].id, type)
            }
        }
        return nil
    }
}

/// Scripted keys and the sound's card.
extension ViewerLoop {
    /// Sends the `--key` presses due by `time` as SDL key events, so they go the way typed keys go.
    func pressKeys(at time: Double) {
        while let press = keys.first, press.time <= time {
            keys.removeFirst()
            var event = SDL_Event()
            event.type = SDL_KEYDOWN.rawValue
            event.key.type = SDL_KEYDOWN.rawValue
            event.key.state = UInt8(SDL_PRESSED)
            event.key.windowID = SDL_GetWindowID(screen.window)
            event.key.keysym.sym = press.key
            event.key.keysym.scancode = SDL_GetScancodeFromKey(press.key)
            if SDL_PushEvent(&event) < 0 {
                ReelLog.media.warning("--key \(press.name) at \(press.time) s was not sent: \(SDLScreen.lastError)")
            }
        }
    }

    /// The short whose sound is heard: the one opened alone, or the one playing in the feed
    /// (carousel cards and merch stay silent); nil when none plays.
    func playingShort(_ snapshot: FeedSnapshot) -> String? {
        let model = snapshot.model
        switch route {
        case .short(let id):
            return snapshot.card(id).playing ? id : nil
        case .feed:
            return lastDrawn.first { card in
                card.playing && model.card(id: card.id).map { model.describe($0).type == .short } == true
            }?.id
        }
    }
}
