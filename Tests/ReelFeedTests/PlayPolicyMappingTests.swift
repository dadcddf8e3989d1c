import ReelCore
import ReelFeed
import Testing

/// The play policy's times and configuration, and the mapping from visibility transitions.
@Suite("Play policy: times, configuration and visibility mapping")
struct PlayPolicyMappingTests {
    @Test("events keep their time")
    func eventTime() {
        var policy = PlayPolicy(parameters: .standard)
        let actions = policy.handle(PlayEvent(time: 42.25, kind: .ready, card: TestCards.carousel(3, 1)))
        #expect(actions.map(\.fact) == [PlayFact(time: 42.25, card: "c3/1", kind: .playStart(widget: "c3", type: .carousel, userIntent: false))])
        guard case .grant(let grant) = actions.first else { Issue.record("no grant"); return }
        #expect(grant.previewSeconds == 5)
    }

    @Test("the policy reads its rules from the configuration")
    func fromConfig() throws {
        var policy = PlayPolicy(config: try Fixtures.config(["device.isLowEnd=true"]))
        #expect(policy.handle(PlayEvent(time: 0, kind: .ready, card: TestCards.short(0))).isEmpty)
        #expect(policy.waiting.isEmpty)
        #expect(policy.handle(PlayEvent(time: 0, kind: .userPlay, card: TestCards.short(0))).count == 1)
        #expect(policy.cards.map(\.isPlaying) == [true])
    }

    @Test("a transition's target state maps to an arbiter event", arguments: [
        (VisibilityState.ready, PlayEvent.Kind?.some(.ready)),
        (.active, .ready),
        (.softRelease, .softRelease),
        (.paused, .paused),
        (.unmounted, .unmounted),
        (.idle, .unmounted),
        (.mounted, nil),
        (.prefetch, nil),
    ])
    func mapping(state: VisibilityState, kind: PlayEvent.Kind?) {
        #expect(PlayEvent.Kind(visibilityTarget: state) == kind)
        let transition = VisibilityTransition(time: 7, card: CardRef(widget: 4, slot: 2), cardID: "c9/2", widgetID: "c9", widgetType: .carousel, from: .mounted, to: state, fraction: 0.5)
        let event = PlayEvent(transition)
        #expect(event?.kind == kind)
        if let event {
            #expect(event.time == 7)
            #expect(event.card == PlayCard(ref: CardRef(widget: 4, slot: 2), id: "c9/2", widgetID: "c9", widgetType: .carousel, previewCategory: .carousel))
        }
    }

    @Test("a transition of a collapsed widget (no type) maps to nothing")
    func collapsedWidget() {
        let transition = VisibilityTransition(time: 0, card: CardRef(widget: 0, slot: 0), cardID: "x/0", widgetID: "x", widgetType: nil, from: .idle, to: .ready, fraction: 1)
        #expect(PlayEvent(transition) == nil)
    }

    @Test("the tracker's echo of a grant or revocation changes nothing")
    func echoes() {
        var d = PolicyDriver()
        let s0 = TestCards.short(0), s1 = TestCards.short(1)
        d.send(.ready, s0)
        d.send(.ready, s1)
        // ready -> active after the grant, active -> ready after a preemption: both arrive as ready.
        #expect(d.send(.ready, s0) == [])
        d.send(.userPlay, s1)
        #expect(d.send(.ready, s0) == [])
        #expect(d.playing == ["s1/0"])
    }

    @Test("the feed's cards drive the arbiter through their transitions")
    func feedTransitions() throws {
        // A real feed scrolled by the tracker: the arbiter keeps one short playing and moves on.
        var controller = Fixtures.loadedController(FeedAPI(catalog: try Fixtures.catalog(count: 12), config: try Fixtures.config()), config: try Fixtures.config())
        var policy = PlayPolicy(parameters: .standard)
        var checker = PlayRulesChecker(maxSimultaneous: [.short: 1, .carousel: 3], isLowEnd: false)
        var playing: Set<String> = []
        var mounted: Set<String> = []
        for (index, y) in stride(from: 0.0, through: 3000, by: 150).enumerated() {
            let output = controller.scroll(ScrollSample(time: Double(index), y: y, x: [:], tap: nil, line: index + 1))
            for transition in Fixtures.transitions(output) {
                if transition.to.isMounted, mounted.insert(transition.cardID).inserted {
                    checker.record(PlayFact(time: transition.time, card: transition.cardID, kind: .mount))
                }
                for action in PlayEvent(transition).map({ policy.handle($0) }) ?? [] {
                    checker.record(action.fact)
                    if case .grant(let grant) = action { playing.insert(grant.card.id) }
                }
                if !transition.to.isMounted, mounted.remove(transition.cardID) != nil {
                    checker.record(PlayFact(time: transition.time, card: transition.cardID, kind: .unmount))
                }
            }
        }
        #expect(checker.violations == [])
        #expect(playing.count >= 3, "scrolling through the feed hands play from card to card: \(playing.sorted())")
    }
}
