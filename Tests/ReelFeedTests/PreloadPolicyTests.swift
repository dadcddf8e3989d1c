import Foundation
import ReelCore
import ReelFeed
import Testing

/// The preload policy on a manual clock (each update is a moment of the scroll): stages by
/// distance, what a fling flies past and where it lands, reversals, a tap during a fling, a fling
/// into a carousel and swipes along it, and no churn on a boundary.
@Suite("Preload policy")
struct PreloadPolicyTests {
    typealias Action = PreloadPolicy.Action

    /// Shorts 400 points high on a 400x800 screen (`Grid`): short i spans 400i ..< 400(i+1). The
    /// media range is one screen here (the default reaches three) so the tests see its edges.
    struct Feed {
        var grid: Grid
        var policy = PreloadPolicy(parameters: {
            var parameters = PreloadPolicy.Parameters()
            parameters.mediaScreens = 1
            return parameters
        }())

        init(_ assignments: [String] = []) throws {
            grid = try Grid(count: 60, assignments)
        }

        mutating func update(_ scroll: PreloadPolicy.Scroll) -> [Action] {
            policy.update(scroll, layout: grid.controller.layout, model: grid.controller.model)
        }

        func stage(_ widget: Int, _ slot: Int = 0) -> PreloadStage {
            policy.targets[CardRef(widget: widget, slot: slot)]?.stage ?? .none
        }

        func urgent(_ widget: Int, _ slot: Int = 0) -> Bool {
            policy.targets[CardRef(widget: widget, slot: slot)]?.urgent ?? false
        }
    }

    static func card(_ widget: Int, _ slot: Int = 0) -> CardRef { CardRef(widget: widget, slot: slot) }

    static func fling(to landing: Double, velocity: Double = 5000, restsIn seconds: Double = 1.5, decaying: Bool = true) -> ScrollPredictor.Prediction {
        ScrollPredictor.Prediction(landing: landing, velocity: velocity, secondsToRest: seconds, isFling: true, isStopping: false,
                                   isDecaying: decaying)
    }

    static func dropped(_ actions: [Action]) -> [CardRef: PreloadPolicy.DropReason] {
        var out: [CardRef: PreloadPolicy.DropReason] = [:]
        for action in actions { if case .drop(let card, let reason) = action { out[card] = reason } }
        return out
    }

    static func raised(_ actions: [Action]) -> [CardRef: PreloadStage] {
        var out: [CardRef: PreloadStage] = [:]
        for action in actions { if case .raise(let card, let target) = action { out[card] = target.stage } }
        return out
    }

    @Test("at rest: media on screen and a screen ahead, manifests to three screens, the next card urgent")
    func stagesByDistance() throws {
        var feed = try Feed()
        let actions = feed.update(.init(offset: 0))
        #expect((0...4).allSatisfy { feed.stage($0) == .media }, "on screen, and within one screen below")
        #expect((5...8).allSatisfy { feed.stage($0) == .manifest }, "within three screens")
        #expect(feed.stage(9) == .none)
        #expect(feed.urgent(0) && feed.urgent(1) && feed.urgent(2), "on screen, and the next one")
        #expect(!feed.urgent(3))
        #expect(Self.raised(actions).count == 9 && Self.dropped(actions).isEmpty)
        #expect(feed.update(.init(offset: 0)).isEmpty, "nothing changed, nothing said")
    }

    @Test("scrolling on: a card behind keeps its media for a swipe back, then drops once out of range with slack")
    func behindAndHysteresis() throws {
        var feed = try Feed()
        _ = feed.update(.init(offset: 0))
        _ = feed.update(.init(offset: 500))
        #expect(feed.stage(0) == .media, "100 points behind")
        // 0.6 screens behind: past 0.5, within the hysteresis (0.625).
        #expect(feed.update(.init(offset: 880)).allSatisfy { if case .drop = $0 { false } else { true } })
        #expect(feed.stage(0) == .media)
        let later = feed.update(.init(offset: 1000))
        #expect(Self.dropped(later) == [Self.card(0): .outOfRange])
        // Hovering on the boundary does not churn.
        #expect(Self.dropped(feed.update(.init(offset: 1010))).isEmpty)
        #expect(Self.raised(feed.update(.init(offset: 990))).isEmpty)
    }

    @Test("a fling drops what it flies past, prepares where it lands, and mounts there as it is about to rest")
    func flingLands() throws {
        var feed = try Feed()
        _ = feed.update(.init(offset: 0))
        let flying = feed.update(.init(offset: 400, prediction: Self.fling(to: 4000)))
        #expect(feed.policy.isFlying)
        #expect(feed.stage(10) == .media && feed.stage(11) == .media && feed.urgent(10) && feed.urgent(11))
        #expect(feed.stage(12) == .media && feed.urgent(12), "the next card after the landing")
        #expect(feed.stage(15) == .manifest)
        let dropped = Self.dropped(flying)
        #expect(dropped[Self.card(0)] == .flownPast && dropped[Self.card(3)] == .flownPast)
        #expect(feed.stage(1) == .none, "flown past")
        // About to rest: the landing's cards mount.
        let resting = feed.update(.init(offset: 3600, prediction: Self.fling(to: 4000, velocity: 600, restsIn: 0.4)))
        #expect(Self.raised(resting) == [Self.card(10): .firstFrame, Self.card(11): .firstFrame])
        // Rested: visibility mounts what is on screen now; the policy lets its mounts go.
        let rested = feed.update(.init(offset: 4000))
        #expect(rested.contains(.release(Self.card(10))) && rested.contains(.release(Self.card(11))))
        #expect(feed.stage(10) == .media && !feed.policy.isFlying)
    }

    @Test("a fling not yet seen decaying prepares the landing but mounts nothing")
    func noMountBeforeDecay() throws {
        var feed = try Feed()
        _ = feed.update(.init(offset: 0, prediction: Self.fling(to: 4000, restsIn: 0.3, decaying: false)))
        #expect(feed.stage(10) == .media)
    }

    @Test("a fling that reverses: the old landing is released and dropped, the new one prepared")
    func flingReverses() throws {
        var feed = try Feed()
        _ = feed.update(.init(offset: 2000, prediction: Self.fling(to: 4000, velocity: 800, restsIn: 0.5)))
        #expect(feed.stage(10) == .firstFrame)
        let back = feed.update(.init(offset: 2400, direction: .down, prediction: Self.fling(to: 1200, velocity: -5000)))
        #expect(back.contains(.release(Self.card(10))))
        #expect(Self.dropped(back)[Self.card(10)] == .flownPast)
        #expect(feed.stage(3) == .media && feed.stage(4) == .media && feed.urgent(3), "the new landing")
        #expect(feed.stage(2) == .media && feed.urgent(2), "the next card going up")
        #expect(feed.stage(5) == .media && feed.stage(7) == .none, "behind the way up: half a screen")
    }

    @Test("a tap during a fling stops it: the focus comes back to where the user is")
    func tapDuringFling() throws {
        var feed = try Feed()
        var predictor = ScrollPredictor()
        for step in 0...6 {
            let t = Double(step) / 30
            predictor.sample(6000 * 0.5 * (1 - Foundation.exp(-t / 0.5)), at: t)
        }
        let flying = try #require(predictor.predict(maxOffset: 20_000))
        _ = feed.update(.init(offset: 1000, prediction: flying))
        #expect(feed.policy.isFlying)
        // The finger lands on the screen: the content holds still under it.
        for step in 1...4 { predictor.sample(1100, at: 0.2 + Double(step) / 30) }
        let held = try #require(predictor.predict(maxOffset: 20_000))
        let actions = feed.update(.init(offset: 1100, prediction: held))
        #expect(!feed.policy.isFlying)
        #expect(feed.stage(2) == .media && feed.stage(3) == .media && feed.urgent(3), "the screen under the finger")
        #expect(Self.dropped(actions).values.allSatisfy { $0 == .outOfRange })
    }

    @Test("a fling into a carousel prepares the cards its row shows, then one past its edge")
    func flingIntoACarousel() throws {
        var feed = try Feed(["widgets.carouselEvery=4", "widgets.carouselSize=6", "widgets.carouselMinSize=6"])
        let layout = feed.grid.controller.layout
        let widget = try #require((8..<layout.count).first { layout.types[$0] == .carousel })
        let frame = layout.frames[widget]
        let cards = Array(layout.cards(ofWidget: widget))
        let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        let visible = cards.filter { layout.cardRects[$0].minX < frame.maxX }.count
        try #require(visible >= 1 && visible < cards.count - 2)
        _ = feed.update(.init(offset: 0, prediction: Self.fling(to: frame.minY, restsIn: 0.3)))
        for slot in 0..<visible {
            #expect(feed.stage(widget, slot) == .firstFrame && feed.urgent(widget, slot), "slot \(slot) shows where it lands")
        }
        #expect(feed.stage(widget, visible) == .media, "one card past the row's edge")
        #expect(feed.stage(widget, visible + 1) == .manifest)
        // Rested on it, then a swipe along the row: the card it pages to is on screen, the next past it too.
        _ = feed.update(.init(offset: frame.minY))
        let swiping = feed.update(.init(offset: frame.minY, carouselOffsets: [widget: pitch * 0.3], carouselLandings: [widget: pitch]))
        #expect(feed.urgent(widget, visible) && feed.stage(widget, visible + 1) == .media)
        #expect(Self.raised(swiping)[Self.card(widget, visible + 1)] == .media)
        // A swipe back: the first card is on screen again; nothing was dropped on the way.
        _ = feed.update(.init(offset: frame.minY, carouselOffsets: [widget: pitch]))
        let back = feed.update(.init(offset: frame.minY, carouselOffsets: [widget: pitch * 0.7], carouselLandings: [widget: 0]))
        #expect(feed.urgent(widget, 0) && feed.stage(widget, 0) == .media)
        #expect(Self.dropped(back).isEmpty)
    }

    @Test("cards without a video get nothing")
    func merchGetsNothing() throws {
        var feed = try Feed(["widgets.merch.rate=1", "widgets.merch.minGap=1"])
        _ = feed.update(.init(offset: 0))
        let layout = feed.grid.controller.layout
        for (card, _) in feed.policy.targets {
            #expect(layout.types[card.widget] != .merch)
        }
        #expect(layout.types.contains(.merch))
    }
}
