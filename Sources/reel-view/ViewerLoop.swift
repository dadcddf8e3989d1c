import CSDL2
import Foundation
import Logging
import ReelCore
import ReelSplash
import ReelEngine
import ReelFeed
import ReelLaunch

/// The viewer on the main thread: opens the window, starts the session, then once a frame takes
/// the input, moves the scroll, draws the launch or the feed from the engine's snapshot and
/// pictures, hands what is due to the capture, and presents; at the end closes the session,
/// draws its final figures and reports.
final class ViewerLoop {
    enum Route: Equatable {
        case feed
        /// A short opened alone, full screen.
        case short(String)
    }

    enum Phase {
        /// The session is starting (the simulator, the cache, the launch decision).
        case starting
        /// The launch window, since this time on the screen's clock.
        case launching(LaunchShow, since: Double, instant: ContinuousClock.Instant)
        case feed
    }

    let options: ViewerOptions
    let session: ViewerSession
    let link = ViewerLink()
    let screen: SDLScreen
    let text: TextRenderer
    let textures: PictureTextures
    let painter: FeedPainter
    let hudPainter: HUDPainter
    let launchPainter: LaunchPainter
    let capture: Capture
    let sound: ViewerSound
    /// The sound's figures once the speaker has closed, for the report.
    var soundFigures: ViewerSound.Figures?
    /// The `--key` presses still to come, in time order.
    var keys: [ViewerOptions.KeyPress]
    var viewport: Viewport
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant

    var phase = Phase.starting
    var route = Route.feed
    var feed: ViewerFeed?
    var scroll = ScrollController()
    let trace: TracePlayer?
    var hud: Bool
    var frameTimes = FrameTimes()
    var figures: HUDFigures?
    var hudFrameTime = (p99: 0.0, at: -1.0)
    /// What the engine was last told of the scroll.
    var sentY = -1.0
    var sentCarousels: [String: Double] = [:]
    var feedShownAt: Double?
    var launchEndedAt: Double?
    var splashDismissed = false
    var toast: (text: String, until: Double)?
    var title = ""
    var counts = InputCounts()
    var pointerDown = false
    var lastDrawn: [DrawnCard] = []

    /// What the user did, for the report.
    struct InputCounts: Codable {
        var wheel = 0
        var drags = 0
        var clicks = 0
        var keys = 0
    }

    init(options: ViewerOptions) throws {
        self.options = options
        // The speaker first: the shorts' players decode sound only when there is one to hear it.
        let opened = ContinuousClock.now
        sound = ViewerSound()
        keys = options.keys
        session = try ViewerSession(options: options, link: link, sound: sound.format)
        let points = session.screen
        screen = try SDLScreen(title: "Reel", width: Int((points.width * options.scale).rounded()),
                               height: Int((points.height * options.scale).rounded()), offscreen: options.offscreen,
                               renderer: options.renderer)
        viewport = Viewport(points: points, scale: options.scale)
        let size = screen.pixelSize
        viewport.fit(width: size.width, height: size.height)
        text = try TextRenderer(renderer: screen.renderer, scale: viewport.scale)
        textures = PictureTextures(renderer: screen.renderer)
        painter = FeedPainter(screen: screen, text: text, textures: textures)
        hudPainter = HUDPainter(screen: screen, text: text)
        launchPainter = LaunchPainter(screen: screen, text: text)
        capture = Capture(screenshots: options.screenshots, record: options.record)
        trace = options.trace.map(TracePlayer.init)
        hud = options.hud
        started = clock.now
        sound.opened(at: (opened - started).seconds)
    }

    /// Seconds since the window opened.
    var now: Double { (clock.now - started).seconds }

    // MARK: - The loop

    /// Runs until the user quits, `--exit-after` passes or the session fails; returns the report
    /// (with `--json`) and what failed.
    func run() -> (report: String?, failure: ReelError?) {
        let session = self.session
        Task { await session.run() }
        let interval = 1 / options.fps
        var next = 0.0
        var quit = false
        var captureFailure: ReelError?
        while !quit {
            let time = now
            if let exitAfter = options.exitAfter, time >= exitAfter { break }
            let began = clock.now
            pressKeys(at: time)
            quit = !pumpEvents(at: time)
            if case .failed(let error) = link.state.current { return (nil, error) }
            update(at: time)
            if let feed, feedShownAt != nil { sound.update(engine: feed.engine, playing: playingShort(feed.engine.snapshot)) }
            let cards = draw(at: time)
            if capture.wants(at: time) {
                do {
                    let frame = try screen.readPixels()
                    capture.take(frame.pixels, width: frame.width, height: frame.height, at: time, cards: cards)
                } catch {
                    // The session still closes and reports; the failure is the exit's.
                    captureFailure = error as? ReelError ?? ReelError(.internalFailure, "\(error)")
                    break
                }
            }
            screen.present()
            if feed != nil { frameTimes.record((clock.now - began).seconds * 1000, at: time) }
            next += interval
            let left = next - now
            if left > 0 {
                usleep(UInt32(left * 1_000_000))
            } else {
                next = now
            }
        }
        let (report, failure) = finish()
        return (report, captureFailure ?? failure)
    }

    /// Closes the session, keeps the window drawn until it has closed, draws its final figures
    /// and writes what was asked for.
    private func finish() -> (report: String?, failure: ReelError?) {
        let ended = now
        soundFigures = sound.finish()
        link.quit.update { $0 = true }
        trace?.stop()
        var outcome: ViewerOutcome?
        while outcome == nil {
            switch link.state.current {
            case .closed(let closed): outcome = closed
            case .failed(let error): return (nil, error)
            case .starting, .ready:
                _ = pumpEvents(at: now)
                _ = draw(at: now)
                screen.present()
                usleep(UInt32(1_000_000 / options.fps))
            }
        }
        guard let outcome else { return (nil, ReelError(.internalFailure, "the session ended without an outcome")) }
        // The last frame shows the session's final figures: the summary's.
        _ = draw(at: now)
        screen.present()
        var recording: Capture.Recording?
        var failure: ReelError?
        switch capture.finish(seconds: options.exitAfter) {
        case .success(let made): recording = made
        case .failure(let error): failure = error
        }
        for warning in Set(outcome.warnings).sorted() { ReelLog.feed.warning("\(warning)") }
        for shot in capture.pending {
            ReelLog.media.warning("no screenshot '\(shot.path)': the window closed at \(String(format: "%.1f", ended)) s, before \(shot.time) s")
        }
        let report = options.json ? ViewerReport(loop: self, outcome: outcome.outcome, recording: recording, seconds: ended).text : nil
        return (report, failure)
    }

    // MARK: - Each frame

    /// Takes the session's news and moves the launch and the scroll to `time`.
    private func update(at time: Double) {
        if feed == nil, case .ready(let ready) = link.state.current {
            feed = ready
            startLaunch(ready, at: time)
        }
        guard let feed else { return }
        switch phase {
        case .starting:
            break
        case .launching(let show, let since, let instant):
            let seconds = time - since
            switch show {
            case .nothing:
                endLaunch(at: time)
            case .splash(let splash):
                if splashDismissed || seconds >= splash.seconds {
                    splash.stop()
                    endLaunch(at: time)
                }
            case .loading(let plan, _):
                guard let ready = feed.ready(after: instant) else { break }
                let total = plan.totalSeconds(readyAfter: (ready - instant).seconds)
                // The feed shows under the fade.
                if seconds >= total - plan.fadeSeconds, feedShownAt == nil { showFeed(at: time) }
                if seconds >= total { endLaunch(at: time) }
            }
        case .feed:
            break
        }
        guard feedShownAt != nil else { return }
        let layout = feed.engine.snapshot.layout
        if let trace {
            let position = trace.position.withLock { $0 }
            scroll.set(y: position.y, carousels: position.carousels)
        } else {
            scroll.advance(to: time, layout: layout)
            tellEngine(feed.engine)
        }
    }

    private func startLaunch(_ feed: ViewerFeed, at time: Double) {
        phase = .launching(feed.launch, since: time, instant: clock.now)
        if case .nothing = feed.launch { return }
        // The launch window warms the feed (launch.warmFeed), as `reel feed run --launch` does.
        feed.engine.launch()
    }

    private func endLaunch(at time: Double) {
        if feedShownAt == nil { showFeed(at: time) }
        launchEndedAt = time
        phase = .feed
    }

    private func showFeed(at time: Double) {
        guard let feed else { return }
        feed.engine.show()
        feedShownAt = time
        trace?.start(into: feed.engine)
    }

    /// Sends the engine the scroll when it moved: the vertical offset and the carousels that moved.
    private func tellEngine(_ engine: FeedEngine) {
        var moved: [String: Double] = [:]
        for (id, x) in scroll.carousels where sentCarousels[id] != x { moved[id] = x }
        guard scroll.y != sentY || !moved.isEmpty else { return }
        engine.scroll(to: scroll.y, carousels: moved)
        sentY = scroll.y
        for (id, x) in moved { sentCarousels[id] = x }
    }

    /// Draws the frame for `time`; returns the cards drawn.
    private func draw(at time: Double) -> [DrawnCard] {
        text.beginFrame()
        textures.beginFrame()
        screen.clear(.black)
        screen.fill(viewport.screen, .background)
        guard let feed else {
            let size = text.measure("Starting…", size: 15)
            text.draw("Starting…", x: viewport.screen.x + (viewport.screen.w - size.width) / 2, y: viewport.screen.y + viewport.screen.h / 2,
                      size: 15, color: .secondary)
            return []
        }
        let snapshot = feed.engine.snapshot
        var cards: [DrawnCard] = []
        if feedShownAt != nil {
            switch route {
            case .feed:
                cards = painter.drawFeed(snapshot, y: scroll.y, carousels: scroll.carousels, viewport: viewport, engine: feed.engine,
                                         hud: hud, time: time)
            case .short(let id):
                cards = painter.drawShort(id, snapshot: snapshot, viewport: viewport, engine: feed.engine, hud: hud, time: time)
            }
            painter.drawTabBar(viewport: viewport)
        }
        if case .launching(let show, let since, let instant) = phase {
            drawLaunch(show, seconds: time - since, instant: instant, feed: feed)
        }
        // The frame time shown changes twice a second, readable (and not a new text every frame).
        if time - hudFrameTime.at >= 0.5 || feed.engine.snapshot.phase == .closed {
            hudFrameTime = (frameTimes.recentP99, time)
        }
        var figures = HUDFigures(snapshot.totals, uiFrameP99Ms: hudFrameTime.p99)
        figures.sound = sound.state
        self.figures = figures
        if hud { hudPainter.draw(figures, viewport: viewport, top: route == .feed ? 0 : FeedPainter.topBarHeight) }
        if let toast, toast.until > time {
            let size = text.measure(toast.text, size: 13)
            let area = viewport.screen
            let y = area.y + area.h - viewport.pixels(FeedPainter.tabBarHeight + 44)
            let pad = viewport.pixels(8)
            screen.fill(PixelRect(x: area.x + (area.w - size.width) / 2 - pad, y: y - pad / 2, w: size.width + 2 * pad, h: size.height + pad),
                        Color.black.with(alpha: 200))
            text.draw(toast.text, x: area.x + (area.w - size.width) / 2, y: y, size: 13)
        }
        lastDrawn = cards
        updateTitle(cards, loaded: !snapshot.model.items.isEmpty)
        return cards
    }

    private func drawLaunch(_ show: LaunchShow, seconds: Double, instant: ContinuousClock.Instant, feed: ViewerFeed) {
        switch show {
        case .nothing:
            break
        case .splash(let splash):
            launchPainter.drawSplash(splash, at: seconds, viewport: viewport)
        case .loading(let plan, _):
            var opacity = 1.0
            if let ready = feed.ready(after: instant) {
                let total = plan.totalSeconds(readyAfter: (ready - instant).seconds)
                if plan.fadeSeconds > 0 { opacity = min(1, max(0, (total - seconds) / plan.fadeSeconds)) }
            }
            launchPainter.drawLoading(at: seconds, cycleSeconds: plan.cycleSeconds, opacity: opacity, viewport: viewport)
        }
    }

    /// The window's title says where the viewer is and what plays ("Reel - playing s0/0"): a
    /// script (or a person) sees it change.
    private func updateTitle(_ cards: [DrawnCard], loaded: Bool) {
        let playing = Set(cards.filter(\.playing).map(\.id)).sorted()
        let title: String
        switch phase {
        case .starting: title = "Reel - starting"
        case .launching(let show, _, _): title = "Reel - \(show.kind)"
        case .feed where !loaded: title = "Reel - loading the feed"
        case .feed: title = playing.isEmpty ? "Reel - feed" : "Reel - playing \(playing.joined(separator: " "))"
        }
        if title != self.title {
            self.title = title
            screen.setTitle(title)
        }
    }
}

/// Runs the viewer: the window and its loop on this (the main) thread, the session on tasks.
enum ViewerApp {
    /// The report to print (with `--json`) and the failure to exit with, either or both: a
    /// recording that fails at its end still leaves the session's report.
    static func run(_ options: ViewerOptions) -> (report: String?, failure: ReelError?) {
        do {
            return try ViewerLoop(options: options).run()
        } catch let error as ReelError {
            return (nil, error)
        } catch {
            return (nil, ReelError(.internalFailure, "\(error)"))
        }
    }
}
