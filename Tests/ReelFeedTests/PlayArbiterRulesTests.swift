import ReelCore
import ReelFeed
import Testing

/// The autoplay rules of `PlayPolicy`, one test per rule.
@Suite("PlayArbiter: autoplay rules")
struct PlayArbiterRulesTests {
    let s0 = TestCards.short(0), s1 = TestCards.short(1), s2 = TestCards.short(2), s3 = TestCards.short(3)

    @Test("only one widget plays at a time")
    func oneWidget() {
        var d = PolicyDriver()
        #expect(d.send(.ready, s0) == ["+s0/0"])
        #expect(d.send(.ready, s1) == [])
        #expect(d.send(.ready, TestCards.carousel(2, 0)) == [])
        #expect(d.playing == ["s0/0"])
        #expect(d.waiting == ["s1/0", "c2/0"])
    }

    @Test("a carousel plays at most its limit of cards at once", arguments: [1, 2, 3])
    func carouselLimit(limit: Int) {
        var d = PolicyDriver(PlayParameters(maxSimultaneous: [.short: 1, .carousel: limit]))
        let cards = (0..<5).map { TestCards.carousel(4, $0) }
        let started = d.send(.ready, cards)
        #expect(started == cards.prefix(limit).map { "+\($0.id)" })
        #expect(d.playing.count == limit)
        #expect(d.waiting == cards.dropFirst(limit).map(\.id))
    }

    @Test("a link that carries fewer cards stops the carousel's latest ones; a user's play stays, and they start again once it carries more")
    func linkCarriesFewer() {
        var d = PolicyDriver()
        let cards = (0..<3).map { TestCards.carousel(4, $0) }
        #expect(d.send(.ready, cards) == ["+c4/0", "+c4/1", "+c4/2"])
        #expect(d.policy.linkCarries(1, at: 10).map(\.brief) == ["-c4/2 narrowed", "-c4/1 narrowed"])
        #expect(d.playing == ["c4/0"])
        #expect(d.waiting == ["c4/1", "c4/2"], "narrowed cards wait; they are not watched")
        #expect(d.send(.ready, cards[1]) == [], "nothing starts past what the link carries")
        #expect(d.policy.linkCarries(2, at: 11).map(\.brief) == ["+c4/1"])
        #expect(d.policy.linkCarries(nil, at: 12).map(\.brief) == ["+c4/2"])
        // A user's play outranks the bound: it plays, the autoplaying cards give way.
        #expect(d.policy.linkCarries(1, at: 13).map(\.brief) == ["-c4/2 narrowed", "-c4/1 narrowed"])
        #expect(d.send(.userPlay, cards[2]) == ["-c4/0 preempted user", "+c4/2 user"])
        #expect(d.policy.linkCarries(0, at: 14).isEmpty, "the link always carries one")
    }

    @Test("the default limits come from playback.*.maxSimultaneous")
    func configLimits() throws {
        #expect(PlayParameters(config: try Fixtures.config()) == .standard)
        let two = PlayParameters(config: try Fixtures.config(["playback.carousel.maxSimultaneous=2", "playback.short.maxSimultaneous=0"]))
        #expect(two.limit(for: .carousel) == 2 && two.limit(for: .short) == 0 && two.limit(for: .merch) == 0)
        var d = PolicyDriver(two)
        #expect(d.send(.ready, s0) == [], "shorts may not play with a limit of 0")
        #expect(d.send(.ready, (0..<3).map { TestCards.carousel(1, $0) }) == ["+c1/0", "+c1/1"])
    }

    @Test("merch cards never play and never hold up others")
    func merch() {
        var d = PolicyDriver()
        let m = TestCards.merch(0)
        #expect(d.send(.ready, m) == [])
        #expect(d.waiting == [])
        #expect(d.send(.userPlay, m) == [], "a user's play of a merch card is ignored")
        #expect(d.send(.ready, s1) == ["+s1/0"])
    }

    @Test("ready is a soft ask: waiting cards start in feed order, not arrival order")
    func waitingOrder() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, s3)
        d.send(.ready, s1)
        d.send(.ready, s2)
        #expect(d.waiting == ["s1/0", "s2/0", "s3/0"])
        #expect(d.send(.ended, s0) == ["-s0/0 ended", "+s1/0"])
        #expect(d.send(.ended, s1) == ["-s1/0 ended", "+s2/0"])
    }

    @Test("the playing widget's own waiting cards go before other widgets'")
    func ownWidgetFirst() {
        var d = PolicyDriver()
        let c = (0..<5).map { TestCards.carousel(1, $0) }
        d.send(.ready, c)
        d.send(.ready, s0)
        #expect(d.playing == ["c1/0", "c1/1", "c1/2"])
        #expect(d.waiting == ["c1/3", "c1/4", "s0/0"], "the carousel's own before s0, although s0 is earlier in the feed")
        #expect(d.send(.ended, c[1]) == ["-c1/1 ended", "+c1/3"])
        #expect(d.send(.previewElapsed, c[0]) == ["-c1/0 preview", "+c1/4"])
        #expect(d.send(.ended, c[2]) == ["-c1/2 ended"], "c1/3 and c1/4 still play, so s0 waits")
        #expect(d.send(.ended, c[3]) == ["-c1/3 ended"])
        #expect(d.send(.ended, c[4]) == ["-c1/4 ended", "+s0/0"], "the carousel has none left: another widget starts")
    }

    @Test("a softRelease card yields to a waiting card")
    func softReleaseYields() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, s1)
        #expect(d.send(.softRelease, s0) == ["-s0/0 yielded", "+s1/0"])
        #expect(d.send(.ready, s0) == [], "back in view it waits: one widget at a time")
        #expect(d.waiting == ["s0/0"])
    }

    @Test("a softRelease card with no one waiting plays on until paused")
    func softReleasePlaysOn() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        #expect(d.send(.softRelease, s0) == [])
        #expect(d.playing == ["s0/0"])
        #expect(d.send(.ready, s0) == [], "back above the threshold: still playing, nothing to do")
        #expect(d.send(.softRelease, s0) == [])
        #expect(d.send(.paused, s0) == ["-s0/0 paused"])
    }

    @Test("a softRelease card yields as soon as a card becomes ready")
    func softReleaseYieldsLater() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.softRelease, s0)
        #expect(d.send(.ready, s1) == ["-s0/0 yielded", "+s1/0"])
    }

    @Test("a card that is leaving does not start; it waits for ready")
    func softReleaseDoesNotStart() {
        var d = PolicyDriver()
        #expect(d.send(.softRelease, s0) == [])
        #expect(d.waiting == [])
        #expect(d.send(.ready, s0) == ["+s0/0"])
    }

    @Test("a carousel hands over to another widget only when all its playing cards are leaving")
    func carouselLeaving() {
        var d = PolicyDriver()
        let c = (0..<4).map { TestCards.carousel(0, $0) }
        d.send(.ready, Array(c.prefix(3)))
        d.send(.ready, s1)
        #expect(d.send(.softRelease, c[0]) == [], "c0/1 and c0/2 are still in view: s1 waits")
        #expect(d.send(.softRelease, c[1]) == [])
        #expect(d.send(.softRelease, c[2]) == ["-c0/0 yielded", "-c0/1 yielded", "-c0/2 yielded", "+s1/0"])
    }

    @Test("inside a carousel a leaving card yields to the carousel's next card, the longest playing first")
    func carouselYieldsWithin() {
        var d = PolicyDriver()
        let c = (0..<5).map { TestCards.carousel(0, $0) }
        d.send(.ready, Array(c.prefix(3)))
        d.send(.softRelease, c[1])
        d.send(.softRelease, c[0])
        #expect(d.send(.ready, c[3]) == ["-c0/0 yielded", "+c0/3"])
        #expect(d.send(.ready, c[4]) == ["-c0/1 yielded", "+c0/4"])
        #expect(d.playing == ["c0/2", "c0/3", "c0/4"])
    }

    @Test("videos play once: an ended card never autoplays again in the session")
    func playOnce() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        #expect(d.send(.ended, s0) == ["-s0/0 ended"])
        #expect(d.policy.hasWatched("s0/0"))
        d.send(.paused, s0)
        #expect(d.send(.ready, s0) == [])
        d.send(.unmounted, s0)
        #expect(d.send(.ready, s0) == [], "not even after leaving and coming back")
        #expect(d.waiting == [])
        #expect(d.send(.ready, s1) == ["+s1/0"])
    }

    @Test("a paused card resumes when it is back: play-once counts finished plays, not starts")
    func pausedResumes() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        #expect(d.send(.paused, s0) == ["-s0/0 paused"])
        #expect(d.send(.ready, s0) == ["+s0/0"])
    }

    @Test("preview limits ride on the grant: carousel 5 s, short whole video; 0 means whole video")
    func previewLimits() throws {
        var d = PolicyDriver()
        let grants = d.actions(.ready, s0) + d.actions(.ready, TestCards.carousel(1, 0))
        guard case .grant(let short) = grants.first else { Issue.record("no grant for s0"); return }
        #expect(short.previewSeconds == nil)
        d.send(.ended, s0)
        guard case .grant(let card) = d.log.last else { Issue.record("no grant for c1/0"); return }
        #expect(card.card.id == "c1/0" && card.previewSeconds == 5)

        var shortPreview = PolicyDriver(PlayParameters(config: try Fixtures.config(["playback.previewSeconds.short=3", "playback.previewSeconds.carousel=0"])))
        guard case .grant(let limited) = shortPreview.actions(.ready, s0).first else { Issue.record("no grant"); return }
        #expect(limited.previewSeconds == 3)
        shortPreview.send(.ended, s0)
        guard case .grant(let whole) = shortPreview.actions(.ready, TestCards.carousel(1, 0)).first else { Issue.record("no grant"); return }
        #expect(whole.previewSeconds == nil)
    }

    @Test("a card whose preview elapsed counts as ended: play moves on and it never autoplays again")
    func previewElapsed() {
        var d = PolicyDriver()
        let c = TestCards.carousel(0, 0)
        d.send(.ready, c)
        d.send(.ready, s1)
        #expect(d.send(.previewElapsed, c) == ["-c0/0 preview", "+s1/0"])
        #expect(d.policy.hasWatched("c0/0"))
        d.send(.ended, s1)
        #expect(d.playing == [], "c0/0 is still ready but watched")
    }

    @Test("control rotates through every visible video, each once, widget by widget")
    func rotation() {
        var d = PolicyDriver()
        let feed = [s0] + (0..<4).map { TestCards.carousel(1, $0) } + [TestCards.merch(2), s3]
        d.send(.ready, feed)
        var order: [String] = []
        var guardSteps = 0
        while let card = d.policy.playing.first, guardSteps < 20 {
            guardSteps += 1
            order.append(card.id)
            d.send(card.previewCategory == .carousel ? .previewElapsed : .ended, card)
        }
        #expect(order == ["s0/0", "c1/0", "c1/1", "c1/2", "c1/3", "s3/0"])
        let starts = d.log.compactMap { if case .grant(let g) = $0 { g.card.id } else { nil } }
        #expect(starts == ["s0/0", "c1/0", "c1/1", "c1/2", "c1/3", "s3/0"])
        #expect(d.waiting == [] && d.playing == [])
    }

    @Test("an unmounted playing card is revoked and the next one starts")
    func unmounted() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, s1)
        #expect(d.send(.unmounted, s0) == ["-s0/0 unmounted", "+s1/0"])
        #expect(d.policy.cards.map(\.card.id) == ["s1/0"], "an unmounted card is forgotten")
        #expect(d.send(.unmounted, s0) == [], "twice is harmless")
    }

    @Test("player reports for a card that is not playing only mark it watched")
    func lateEnded() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, s1)
        #expect(d.send(.ended, s1) == [])
        #expect(d.policy.hasWatched("s1/0"))
        #expect(d.send(.ended, s0) == ["-s0/0 ended"], "s1 was watched, so nothing follows")
    }
}
