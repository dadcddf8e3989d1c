import ReelCore
import ReelFeed
import Testing

/// `PlayRulesChecker` on hand-made fact sequences: each violation kind caught, clean sessions
/// pass, and facts read from JSON.
@Suite("PlayRulesChecker")
struct PlayRulesCheckerTests {
    static let limits: [WidgetType: Int] = [.short: 1, .carousel: 3, .merch: 0]

    static func mount(_ card: String, _ t: Double) -> PlayFact { PlayFact(time: t, card: card, kind: .mount) }
    static func unmount(_ card: String, _ t: Double) -> PlayFact { PlayFact(time: t, card: card, kind: .unmount) }
    static func start(_ card: String, _ t: Double, user: Bool = false) -> PlayFact {
        let widget = String(card.prefix { $0 != "/" })
        let type: WidgetType = widget.hasPrefix("c") ? .carousel : widget.hasPrefix("m") ? .merch : .short
        return PlayFact(time: t, card: card, kind: .playStart(widget: widget, type: type, userIntent: user))
    }
    static func stop(_ card: String, _ t: Double, _ reason: PlayStopReason = .paused) -> PlayFact {
        PlayFact(time: t, card: card, kind: .playStop(reason: reason))
    }

    func check(_ facts: [PlayFact], lowEnd: Bool = false) -> [PlayRuleViolation] {
        PlayRulesChecker.check(facts, maxSimultaneous: Self.limits, isLowEnd: lowEnd)
    }

    @Test("a clean session has no violations")
    func clean() {
        let facts = [
            Self.mount("s0/0", 0), Self.mount("c1/0", 0), Self.mount("c1/1", 0), Self.mount("c1/2", 0),
            Self.start("s0/0", 1), Self.stop("s0/0", 2, .ended),
            Self.start("c1/0", 2), Self.start("c1/1", 2), Self.start("c1/2", 2),
            Self.stop("c1/0", 3, .preview), Self.stop("c1/1", 3, .yielded), Self.stop("c1/2", 3, .yielded),
            Self.start("s0/0", 4, user: true), Self.stop("s0/0", 5, .userPaused),
            Self.start("c1/1", 6), Self.unmount("c1/1", 7), Self.unmount("s0/0", 8),
        ]
        #expect(check(facts) == [])
    }

    @Test("two widgets playing at once")
    func twoWidgets() {
        let found = check([Self.mount("s0/0", 0), Self.mount("s1/0", 0), Self.start("s0/0", 1), Self.start("s1/0", 2, user: true)])
        #expect(found.map(\.kind) == [.twoWidgets])
        #expect(found.first?.time == 2 && found.first?.cards == ["s0/0", "s1/0"])
    }

    @Test("more cards of one widget than its type's limit")
    func overLimit() {
        let cards = (0..<4).map { "c2/\($0)" }
        let found = check(cards.map { Self.mount($0, 0) } + cards.enumerated().map { Self.start($1, Double($0 + 1)) })
        #expect(found.map(\.kind) == [.overLimit])
        #expect(found.first?.time == 4 && found.first?.cards == cards)
        let merch = check([Self.mount("m3/0", 0), Self.start("m3/0", 1, user: true)])
        #expect(merch.map(\.kind) == [.overLimit], "merch may not play at all")
    }

    @Test("a card autoplaying again after it ended or its preview elapsed")
    func autoplayAgain() {
        for reason in [PlayStopReason.ended, .preview] {
            let found = check([Self.mount("s0/0", 0), Self.start("s0/0", 1), Self.stop("s0/0", 2, reason), Self.start("s0/0", 3)])
            #expect(found.map(\.kind) == [.autoplayAgain], "after \(reason)")
            #expect(found.first?.time == 3 && found.first?.cards == ["s0/0"])
        }
        let paused = check([Self.mount("s0/0", 0), Self.start("s0/0", 1), Self.stop("s0/0", 2, .paused), Self.start("s0/0", 3)])
        #expect(paused == [], "resuming after a pause is the same play")
        let replay = check([Self.mount("s0/0", 0), Self.start("s0/0", 1), Self.stop("s0/0", 2, .ended), Self.start("s0/0", 3, user: true)])
        #expect(replay == [], "a user may replay")
    }

    @Test("low-end: any autoplay")
    func lowEndAutoplay() {
        let found = check([Self.mount("s0/0", 0), Self.start("s0/0", 1)], lowEnd: true)
        #expect(found.map(\.kind) == [.lowEndAutoplay])
        #expect(check([Self.mount("s0/0", 0), Self.start("s0/0", 1, user: true)], lowEnd: true) == [])
    }

    @Test("low-end: two players mounted at once")
    func lowEndPlayers() {
        let found = check([Self.mount("s0/0", 0), Self.mount("s1/0", 1)], lowEnd: true)
        #expect(found.map(\.kind) == [.lowEndPlayers])
        #expect(found.first?.time == 1 && found.first?.cards == ["s0/0", "s1/0"])
        #expect(check([Self.mount("s0/0", 0), Self.unmount("s0/0", 1), Self.mount("s1/0", 1)], lowEnd: true) == [])
        #expect(check([Self.mount("s0/0", 0), Self.mount("s1/0", 1)]) == [], "allowed on other devices")
    }

    @Test("low-end: one playing card even inside a carousel")
    func lowEndOverLimit() {
        let found = check([Self.mount("c0/0", 0), Self.start("c0/0", 1, user: true), Self.mount("c0/1", 1), Self.start("c0/1", 2, user: true)], lowEnd: true)
        #expect(Set(found.map(\.kind)) == [.lowEndPlayers, .overLimit])
    }

    @Test("a play start without a mount")
    func startWithoutMount() {
        #expect(check([Self.start("s0/0", 1, user: true)]).map(\.kind) == [.startWithoutMount])
        #expect(check([Self.mount("s0/0", 0), Self.unmount("s0/0", 1), Self.start("s0/0", 2)]).map(\.kind) == [.startWithoutMount])
    }

    @Test("facts that do not fit together: double start, stop without start, time backwards")
    func inconsistent() {
        #expect(check([Self.mount("s0/0", 0), Self.start("s0/0", 1), Self.start("s0/0", 2)]).map(\.kind) == [.startWhilePlaying])
        #expect(check([Self.mount("s0/0", 0), Self.stop("s0/0", 1)]).map(\.kind) == [.stopWithoutStart])
        let backwards = check([Self.mount("s0/0", 5), Self.mount("s1/0", 4)])
        #expect(backwards.map(\.kind) == [.timeBackwards] && backwards.first?.time == 4)
        #expect(check([Self.mount("s0/0", 0), Self.start("s0/0", 1), Self.unmount("s0/0", 2), Self.mount("s0/0", 3), Self.start("s0/0", 4)]) == [], "an unmount stops the play")
    }

    @Test("every violation is reported, in order, also on a running checker")
    func incremental() {
        var checker = PlayRulesChecker(maxSimultaneous: Self.limits, isLowEnd: true)
        #expect(checker.record(Self.mount("s0/0", 0)) == [])
        #expect(checker.record(Self.start("s0/0", 1)).map(\.kind) == [.lowEndAutoplay])
        #expect(checker.record(Self.start("s1/0", 2)).map(\.kind) == [.startWithoutMount, .lowEndAutoplay, .twoWidgets])
        #expect(checker.violations.count == 4)
        #expect(checker.violations.last?.description == "t=2 twoWidgets: widgets s0, s1 playing at once")
    }

    @Test("the checker's limits come from the configuration")
    func fromConfig() throws {
        let checker = PlayRulesChecker(config: try Fixtures.config(["playback.carousel.maxSimultaneous=2", "device.isLowEnd=true"]))
        #expect(checker.maxSimultaneous == [1, 2, 0] && checker.isLowEnd)
    }

    @Test("facts read from JSON lines and write back the same")
    func json() throws {
        let lines = [
            #"{"t":0,"fact":"mount","card":"c3/1"}"#,
            #"{"t":1.5,"fact":"playStart","card":"c3/1","widget":"c3","type":"carousel","user":false}"#,
            #"{"t":6.5,"fact":"playStop","card":"c3/1","reason":"preview"}"#,
            #"{"t":9,"fact":"unmount","card":"c3/1"}"#,
        ]
        let facts = try lines.map { try PlayFact(json: JSONParser.parse($0)) }
        #expect(facts == [
            Self.mount("c3/1", 0), Self.start("c3/1", 1.5), Self.stop("c3/1", 6.5, .preview), Self.unmount("c3/1", 9),
        ])
        #expect(facts.map { JSONWriter.compact($0.json) } == lines)
        let noUser = try PlayFact(json: JSONParser.parse(#"{"t":1,"fact":"playStart","card":"s0/0","widget":"s0","type":"short"}"#))
        #expect(noUser.kind == .playStart(widget: "s0", type: .short, userIntent: false), "user defaults to false")
    }

    @Test("bad fact JSON is an invalidInput error naming the field", arguments: [
        (#"[1]"#, "expected a JSON object"),
        (#"{"fact":"mount","card":"a"}"#, "missing \"t\""),
        (#"{"t":"x","fact":"mount","card":"a"}"#, "\"t\" must be a finite number"),
        (#"{"t":1,"fact":"mount"}"#, "missing \"card\""),
        (#"{"t":1,"fact":"jump","card":"a"}"#, "\"fact\" must be mount, unmount, playStart or playStop, found \"jump\""),
        (#"{"t":1,"fact":"playStart","card":"a","type":"short"}"#, "missing \"widget\""),
        (#"{"t":1,"fact":"playStart","card":"a","widget":"a","type":"banner"}"#, "\"type\" must be one of short, carousel, merch"),
        (#"{"t":1,"fact":"playStart","card":"a","widget":"a","type":"short","user":1}"#, "\"user\" must be a boolean"),
        (#"{"t":1,"fact":"playStop","card":"a","reason":"tired"}"#, "\"reason\" must be one of paused, unmounted"),
    ])
    func badJSON(text: String, message: String) throws {
        let value = try JSONParser.parse(text)
        #expect {
            try PlayFact(json: value)
        } throws: { error in
            guard let error = error as? ReelError else { return false }
            return error.code == .invalidInput && error.message.contains(message)
        }
    }
}
