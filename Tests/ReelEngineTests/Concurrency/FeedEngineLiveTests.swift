import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia
import ReelTestSupport
import Testing

/// A `FeedEngine` driven live from code, with no trace: scrolls, a fling, a carousel swipe, the
/// app going to the background and back, a tap on a low-end device, each at a chosen time on a
/// manual clock, with fake players that play on that clock. The play rules (the checker behind
/// `reel feed check-events`) must hold over the events.
@Suite("Feed engine, live input on a test clock")
struct FeedEngineLiveTests {
    /// An engine on the bundled feed with fake players, and its manual clock.
    struct Rig {
        let manual = ManualClock()
        let clock: EngineClock
        let engine: FeedEngine
        let config: ReelConfig
        /// Where each widget sits, from a controller given the feed's first pages.
        let layout: FeedLayout
        let model: FeedModel
        let performers: FakePerformers

        init(settings: [String] = [], picture: Picture? = nil) throws {
            clock = EngineClock(manual)
            config = try ConfigResolver().resolve([.assignments(settings)]).config
            let catalog = try FeedCatalog.load(path: PackagePaths.samples.appendingPathComponent("video-feed.json").path)
            let source = CatalogFeedSource(catalog: catalog, baseURL: PackagePaths.samples, config: config)
            performers = FakePerformers(clock: clock, picture: picture)
            engine = FeedEngine(config: config, source: source, clock: clock, performers: performers)
            var controller = FeedController(config: config)
            for page in FeedAPI(catalog: catalog, config: config).pages(limit: 30) { _ = controller.receive(page, at: 0) }
            layout = controller.layout
            model = controller.model
        }

        /// Moves the clock to `time` in 10 ms steps, letting the engine take in what is due.
        func run(to time: Double) async {
            while clock.now() < time - 1e-9 {
                manual.advance(by: .milliseconds(10))
                await engine.settled()
            }
        }

        /// Moves the clock on in 10 ms steps until the engine shows a card playing (its players
        /// report on their own tasks, which a slow machine may run late), at most to `deadline`.
        func runUntilPlaying(by deadline: Double) async {
            while !engine.snapshot.cards.values.contains(where: \.playing), clock.now() < deadline - 1e-9 {
                manual.advance(by: .milliseconds(10))
                await engine.settled()
            }
        }

        /// Scrolls from the current offset to `y` over `seconds` at 60 Hz, easing out as a
        /// finger's drag does.
        func scroll(from start: Double, to y: Double, over seconds: Double, carousel: (id: String, from: Double, to: Double)? = nil) async {
            let steps = max(1, Int(seconds * 60))
            let begin = clock.now()
            for step in 1...steps {
                let progress = Double(step) / Double(steps)
                let eased = 1 - (1 - progress) * (1 - progress)
                await run(to: begin + seconds * progress)
                var carousels: [String: Double] = [:]
                if let carousel { carousels[carousel.id] = carousel.from + (carousel.to - carousel.from) * eased }
                engine.scroll(to: carousel == nil ? start + (y - start) * eased : y, carousels: carousels)
            }
        }

        /// The offset that puts widget `index` at the top of the screen.
        func top(of index: Int) -> Double { max(0, layout.frames[index].y - layout.metrics.widgetSpacing) }

        func widget(_ type: WidgetType, after index: Int = 0) throws -> Int {
            try #require(layout.types.indices.first { $0 > index && layout.types[$0] == type })
        }

        func violations(_ events: [SessionEvent]) -> [PlayRuleViolation] {
            PlayRulesChecker.check(events.compactMap(\.playFact), maxSimultaneous: Dictionary(uniqueKeysWithValues:
                WidgetType.allCases.map { ($0, config.playback.maxSimultaneous(for: $0)) }), isLowEnd: config.device.isLowEnd)
        }
    }

    static func starts(_ events: [SessionEvent]) -> [SessionEvent.PlayStart] {
        events.compactMap { if case .playStart(let start) = $0.kind { start } else { nil } }
    }

    @Test("scrolls, a fling, a carousel swipe, background and foreground keep the play rules")
    func liveSession() async throws {
        let rig = try Rig()
        let engine = rig.engine
        engine.show()
        await rig.run(to: 1)
        // A slow scroll to the second short, a rest there.
        let second = try rig.widget(.short)
        await rig.scroll(from: 0, to: rig.top(of: second), over: 1.5)
        await rig.run(to: 5)
        // A fling over a dozen widgets: fast, then resting where it lands.
        let landing = rig.layout.count - 1
        let flung = rig.clock.now()
        await rig.scroll(from: rig.top(of: second), to: rig.top(of: landing), over: 0.6)
        await rig.run(to: 8)
        let rested = rig.clock.now()
        // Back up to a carousel, then a swipe through its cards.
        let carousel = try rig.widget(.carousel)
        await rig.scroll(from: rig.top(of: landing), to: rig.top(of: carousel), over: 1.2)
        await rig.run(to: 11)
        let carouselID = rig.model.items[carousel].id
        let pitch = rig.layout.metrics.carouselCardWidth + rig.layout.metrics.carouselCardSpacing
        await rig.scroll(from: rig.top(of: carousel), to: rig.top(of: carousel), over: 0.5,
                         carousel: (carouselID, 0, min(2 * pitch, rig.layout.maxCarouselOffset(widget: carousel))))
        await rig.run(to: 14)
        // The app goes to the background for two seconds, while a card plays.
        await rig.runUntilPlaying(by: 20)
        let playingAtBackground = Set(engine.snapshot.cards.filter(\.value.playing).map(\.key))
        engine.background()
        let background = rig.clock.now()
        await rig.run(to: background + 2)
        engine.foreground()
        let foreground = rig.clock.now()
        await rig.run(to: foreground + 3)
        let outcome = await engine.close()
        let events = outcome.events

        #expect(rig.violations(events).isEmpty, "\(rig.violations(events).map(\.description))")
        let starts = Self.starts(events)
        let played = Set(starts.map(\.card.rawValue))
        let firstShort = rig.model.items[try #require(rig.layout.types.firstIndex(of: .short))].id
        #expect(played.contains("\(firstShort)/0"), "\(played)")
        #expect(played.contains("\(rig.model.items[second].id)/0"), "\(played)")
        #expect(starts.contains { $0.widget.rawValue == carouselID }, "no carousel card played: \(played)")
        // The fling's cards in between were flown past: none mounted while it flew.
        #expect(landing - second >= 5)
        let flownPast = Set((second + 2..<landing - 2).map { rig.model.items[$0].id })
        let mounted = events.filter { $0.time > flung && $0.time < rested }
            .compactMap { if case .mount(let card) = $0.kind { card.card.rawValue } else { nil } }
        #expect(!mounted.contains { flownPast.contains(String($0.split(separator: "/")[0])) },
                "mounted \(mounted), flown past \(flownPast.sorted())")
        // Nothing plays in the background; something plays again after it.
        let inBackground = events.filter { $0.time > background + 1e-6 && $0.time < foreground - 1e-6 }
        #expect(!inBackground.contains { if case .playStart = $0.kind { true } else { false } })
        // What played as the app left (the screen's view, the signal waited for): each began in
        // the events by then, and the background stopped it.
        #expect(!playingAtBackground.isEmpty)
        for card in playingAtBackground {
            let began = events.contains { event in
                guard event.time <= background + 1e-9, case .playStart(let start) = event.kind else { return false }
                return start.card.rawValue == card
            }
            #expect(began, "\(card) played at the background with no playStart before it")
        }
        #expect(Self.playing(events, at: foreground - 1e-3).isEmpty)
        #expect(events.contains { $0.time >= foreground - 1e-6 && { if case .playStart = $0.kind { true } else { false } }($0) })
        #expect(outcome.summary.plays == starts.count && outcome.summary.errors == 0)
    }

    @Test("on a low-end device nothing autoplays; a tap plays one card with the only player")
    func lowEndTap() async throws {
        let rig = try Rig(settings: ["device.isLowEnd=true"])
        let engine = rig.engine
        engine.show()
        await rig.run(to: 2)
        let second = try rig.widget(.short)
        await rig.scroll(from: 0, to: rig.top(of: second), over: 1)
        await rig.run(to: 4)
        let card = "\(rig.model.items[second].id)/0"
        engine.tap(card: card)
        await rig.run(to: 6)
        let third = try rig.widget(.short, after: second)
        await rig.scroll(from: rig.top(of: second), to: rig.top(of: third), over: 1)
        await rig.run(to: 8)
        let other = "\(rig.model.items[third].id)/0"
        engine.tap(card: other)
        await rig.run(to: 10)
        let outcome = await engine.close()
        let events = outcome.events
        #expect(rig.violations(events).isEmpty, "\(rig.violations(events).map(\.description))")
        let starts = Self.starts(events)
        #expect(starts.map(\.card.rawValue) == [card, other])
        #expect(starts.allSatisfy { $0.userIntent })
        // One player at a time: every mount after the first follows the previous one's unmount.
        var live = 0, most = 0
        for event in events {
            if case .mount = event.kind { live += 1 }
            if case .unmount = event.kind { live -= 1 }
            most = max(most, live)
        }
        #expect(most == 1)
    }

    /// Cards playing at `time`, from the play facts before it.
    static func playing(_ events: [SessionEvent], at time: Double) -> Set<String> {
        var playing: Set<String> = []
        for event in events where event.time <= time {
            if case .playStart(let start) = event.kind { playing.insert(start.card.rawValue) }
            if case .playStop(let stop) = event.kind { playing.remove(stop.card.rawValue) }
        }
        return playing
    }
}
