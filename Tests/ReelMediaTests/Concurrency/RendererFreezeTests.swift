import Testing
@testable import ReelMedia

/// When a real-time renderer's picture freezes: a decoder that finds no packet has until then
/// before its player has run dry.
@Suite struct RendererFreezeTests {
    /// The frame taken off the queue to show counts until it stops showing: with nothing queued
    /// the picture still lasts a frame's interval past its due time, and queued frames add theirs.
    /// (Times a binary fraction of a second, so they are exact.)
    @Test func theFrameOnScreenCountsUntilItStopsShowing() {
        let clock = SteppedClock()
        let renderer = HeadlessRenderer(mode: .realTime, clock: clock, interval: .milliseconds(125))
        // The first frame is due at once; the second, taken next, waits until 125 ms.
        renderer.submit(pts: 0, width: 2, height: 2)
        renderer.submit(pts: 0.125, width: 2, height: 2)
        clock.waitForSleep(until: .milliseconds(125))
        #expect(renderer.bufferedDuration == .zero)
        #expect(renderer.timeToFreeze == .milliseconds(250))
        clock.advance(by: .milliseconds(100))
        #expect(renderer.timeToFreeze == .milliseconds(150))
        renderer.submit(pts: 0.25, width: 2, height: 2)
        #expect(renderer.timeToFreeze == .milliseconds(275))
        // The second frame shows; the third, taken next, waits until 250 ms.
        clock.advance(by: .milliseconds(25))
        clock.waitForSleep(until: .milliseconds(250))
        #expect(renderer.timeToFreeze == .milliseconds(250))
        // Once the last frame has shown its interval, the picture is frozen.
        clock.advance(by: .milliseconds(250))
        let stats = renderer.finish()
        #expect(stats.presented == 3 && stats.stalls == 0, "\(stats)")
        #expect(renderer.timeToFreeze == .zero)
    }
}
