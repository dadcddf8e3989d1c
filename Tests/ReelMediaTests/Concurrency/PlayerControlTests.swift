import Testing
@testable import ReelMedia

/// Where a player's TTFF starts: the play its first frame answers.
@Suite("PlayerControl")
struct PlayerControlTests {
    @Test("TTFF starts at the latest play after a pause, not at an earlier play paused before any frame; a repeated play keeps it")
    func playRequestIsTheLatestPlay() throws {
        let control = PlayerControl()
        let origin = ContinuousClock.now
        #expect(control.current.playRequest == nil)
        control.play(at: origin)
        #expect(control.current.playRequest == origin)
        control.play(at: origin + .seconds(1))
        #expect(control.current.playRequest == origin, "a play while playing is no new request")
        control.pause()
        control.play(at: origin + .seconds(5))
        #expect(control.current.playRequest == origin + .seconds(5))
        #expect(control.current.plays == 3)
        control.stop()
        #expect(control.play(at: origin + .seconds(9)) == false)
        #expect(control.current.playRequest == origin + .seconds(5))
    }
}
