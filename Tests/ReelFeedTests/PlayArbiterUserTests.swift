import ReelCore
import ReelFeed
import Testing

/// A user's play and pause, and the low-end device.
@Suite("PlayArbiter: user intent and low-end devices")
struct PlayArbiterUserTests {
    let s0 = TestCards.short(0), s1 = TestCards.short(1), s2 = TestCards.short(2)

    @Test("a user's play takes over from the playing widget, which resumes later")
    func userPlayPreempts() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, s1)
        #expect(d.send(.userPlay, s1) == ["-s0/0 preempted user", "+s1/0 user"])
        #expect(d.waiting == ["s0/0"], "preempted, not watched: it may play again")
        #expect(d.send(.ended, s1) == ["-s1/0 ended", "+s0/0"])
    }

    @Test("a user's play stops every card of another carousel")
    func userPlayStopsCarousel() {
        var d = PolicyDriver()
        d.send(.ready, (0..<3).map { TestCards.carousel(0, $0) })
        d.send(.ready, s1)
        #expect(d.send(.userPlay, s1) == ["-c0/0 preempted user", "-c0/1 preempted user", "-c0/2 preempted user", "+s1/0 user"])
    }

    @Test("a user's play inside a full carousel stops one card: autoplaying before user's, leaving before ready, longest playing first")
    func userPlayInsideCarousel() {
        var d = PolicyDriver()
        let c = (0..<6).map { TestCards.carousel(0, $0) }
        d.send(.ready, Array(c.prefix(3)))
        d.send(.paused, Array(c.suffix(3)))
        #expect(d.playing == ["c0/0", "c0/1", "c0/2"])
        #expect(d.send(.softRelease, c[2]) == [], "no card of the carousel waits, so it plays on")
        #expect(d.send(.userPlay, c[4]) == ["-c0/2 preempted user", "+c0/4 user"], "the leaving card goes first")
        #expect(d.send(.userPlay, c[5]) == ["-c0/0 preempted user", "+c0/5 user"], "then the longest playing autoplay")
        #expect(d.send(.userPlay, c[3]) == ["-c0/1 preempted user", "+c0/3 user"])
        #expect(d.send(.userPlay, c[0]) == ["-c0/4 preempted user", "+c0/0 user"], "only user plays left: the oldest gives way")
    }

    @Test("a user's play in a carousel with room keeps the others and lets the rest fill in")
    func userPlayWithRoom() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, (0..<3).map { TestCards.carousel(1, $0) })
        #expect(d.send(.userPlay, TestCards.carousel(1, 2)) == ["-s0/0 preempted user", "+c1/2 user", "+c1/0", "+c1/1"])
    }

    @Test("a user's play on a playing card makes it the user's: it no longer yields")
    func userPlayOnPlaying() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        #expect(d.send(.userPlay, s0) == [])
        #expect(d.policy.cards.first?.userIntent == true)
        d.send(.softRelease, s0)
        #expect(d.send(.ready, s1) == [], "a user's choice does not give way to autoplay")
        #expect(d.send(.paused, s0) == ["-s0/0 paused", "+s1/0"], "leaving the screen still stops it")
    }

    @Test("a user's play works on a card that is leaving or paused, but not on one with no player")
    func userPlayPlacement() {
        var d = PolicyDriver()
        d.send(.paused, s0)
        #expect(d.send(.userPlay, s0) == ["+s0/0 user"])
        #expect(d.send(.userPlay, s2) == [], "s2 was never mounted")
        d.send(.softRelease, s1)
        #expect(d.send(.userPlay, s1) == ["-s0/0 preempted user", "+s1/0 user"])
    }

    @Test("a user's play replays an ended video from the start, without a preview limit")
    func userReplay() {
        var d = PolicyDriver()
        let c = TestCards.carousel(0, 0)
        d.send(.ready, c)
        d.send(.ended, c)
        guard case .grant(let replay) = d.actions(.userPlay, c).first else { Issue.record("no replay"); return }
        #expect(replay.userIntent && replay.fromStart && replay.previewSeconds == nil)
        d.send(.paused, c)
        d.send(.ready, c)
        guard case .grant(let resume) = d.actions(.userPlay, c).first else { Issue.record("no resume"); return }
        #expect(!resume.fromStart, "paused during the replay: it resumes")
    }

    @Test("a user's play after a preview continues where the preview stopped")
    func userPlayAfterPreview() {
        var d = PolicyDriver()
        let c = TestCards.carousel(0, 0)
        d.send(.ready, c)
        d.send(.previewElapsed, c)
        guard case .grant(let grant) = d.actions(.userPlay, c).first else { Issue.record("no grant"); return }
        #expect(!grant.fromStart && grant.previewSeconds == nil && grant.userIntent)
        #expect(d.send(.ended, c) == ["-c0/0 ended"])
        #expect(d.send(.ready, c) == [])
    }

    @Test("with playback.userPlayReplaysEnded off, a tap on an ended video is ignored")
    func noReplay() throws {
        var d = PolicyDriver(PlayParameters(config: try Fixtures.config(["playback.userPlayReplaysEnded=false"])))
        d.send(.ready, s0)
        d.send(.ended, s0)
        #expect(d.send(.userPlay, s0) == [])
        let c = TestCards.carousel(1, 0)
        d.send(.ready, c)
        d.send(.previewElapsed, c)
        #expect(d.send(.userPlay, c) == ["+c1/0 user"], "a preview is not the whole video: the user may go on")
    }

    @Test("a user's pause stops the card and starts the next one")
    func userPause() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, s1)
        #expect(d.send(.userPause, s0) == ["-s0/0 userPaused user", "+s1/0"])
        #expect(d.policy.cards.first?.heldByUser == true)
    }

    @Test("a user-paused card does not autoplay until the user plays it")
    func userPauseHolds() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.userPause, s0)
        #expect(d.send(.paused, s0) == [])
        #expect(d.send(.ready, s0) == [], "scrolling it out of view and back does not release the hold")
        d.send(.softRelease, s0)
        #expect(d.send(.ready, s0) == [])
        #expect(d.send(.userPlay, s0) == ["+s0/0 user"])
    }

    @Test("a user-paused card autoplays again after it left and came back (unmount)")
    func userPauseReleasedByUnmount() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.userPause, s0)
        d.send(.paused, s0)
        d.send(.unmounted, s0)
        #expect(d.send(.ready, s0) == ["+s0/0"])
    }

    @Test("a user's pause of a waiting card keeps it from starting")
    func userPauseWaiting() {
        var d = PolicyDriver()
        d.send(.ready, s0)
        d.send(.ready, s1)
        #expect(d.send(.userPause, s1) == [])
        #expect(d.send(.ended, s0) == ["-s0/0 ended"])
    }

    @Test("low-end: nothing autoplays")
    func lowEndNoAutoplay() throws {
        var d = PolicyDriver(PlayParameters(config: try Fixtures.config(["device.isLowEnd=true"])))
        #expect(d.send(.ready, [s0, s1] + (0..<3).map { TestCards.carousel(2, $0) }) == [])
        #expect(d.waiting == [])
    }

    @Test("low-end: a user's play pauses every other video, one grant at a time")
    func lowEndUserPlay() throws {
        var d = PolicyDriver(PlayParameters(config: try Fixtures.config(["device.isLowEnd=true"])))
        let c = (0..<3).map { TestCards.carousel(2, $0) }
        d.send(.ready, [s0, s1] + c)
        #expect(d.send(.userPlay, s0) == ["+s0/0 user"])
        #expect(d.send(.userPlay, c[0]) == ["-s0/0 preempted user", "+c2/0 user"])
        #expect(d.send(.userPlay, c[1]) == ["-c2/0 preempted user", "+c2/1 user"], "one card even inside a carousel")
        #expect(d.send(.ended, c[1]) == ["-c2/1 ended"], "nothing follows on its own")
        #expect(d.playing == [])
    }

    @Test("low-end: leaving with no one to yield to, a user's play plays on until paused")
    func lowEndSoftRelease() throws {
        var d = PolicyDriver(PlayParameters(maxSimultaneous: [.short: 1, .carousel: 3], isLowEnd: true))
        d.send(.ready, [s0, s1])
        d.send(.userPlay, s0)
        #expect(d.send(.softRelease, s0) == [])
        #expect(d.send(.paused, s0) == ["-s0/0 paused"])
    }
}
