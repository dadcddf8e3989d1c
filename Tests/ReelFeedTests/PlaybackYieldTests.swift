import ReelCore
import ReelFeed
import Testing

/// The gate the `PlaybackYield` policy chooses from play events and buffer reports.
@Suite("Playback yield")
struct PlaybackYieldTests {
    @Test("a play waiting for its first frame closes the gate; a low buffer lets only the urgent tier through")
    func yieldFollowsPlays() {
        var yield = PlaybackYield(minPlayingBufferMs: 2000)
        #expect(yield.gate == .open)
        #expect(yield.playStarted(1) == .closed)
        #expect(yield.buffered(1, ms: 500) == nil, "still waiting for the first frame")
        #expect(yield.firstFrame(1) == .urgentOnly, "playing with 0.5 s buffered")
        #expect(yield.buffered(1, ms: 2500) == .open)
        // A second play with a held frame does not wait; its buffer is unknown (0) at first.
        #expect(yield.playStarted(2, waitsForFirstFrame: false) == .urgentOnly)
        #expect(yield.buffered(2, ms: 3000) == .open)
        #expect(yield.buffered(2, ms: 100) == .urgentOnly)
        #expect(yield.playStopped(2) == .open)
        #expect(yield.playStopped(1) == nil)
        #expect(yield.buffered(7, ms: 0) == nil, "a player that does not play is not counted")
    }

    @Test("with the yield off the gate stays open")
    func yieldOff() {
        var yield = PlaybackYield(minPlayingBufferMs: 0, pausesWhileStarting: false)
        #expect(yield.playStarted(1) == nil)
        #expect(yield.buffered(1, ms: 0) == nil)
        #expect(yield.gate == .open)
    }
}
