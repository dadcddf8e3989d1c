import ReelCore
import ReelMedia
import Testing

@Suite("FramePacer: when frames are shown, late, dropped, or stalled")
struct FramePacerTests {
    let interval = Duration.milliseconds(33)

    func ms(_ value: Double) -> Duration { .microseconds(Int64(value * 1000)) }

    /// Whether `decision` presents within a microsecond of `time` (pts arithmetic is floating point).
    func presents(_ decision: FramePacer.Decision, at time: Duration) -> Bool {
        guard case .present(let at) = decision else { return false }
        return abs((at - time).seconds) < 1e-6
    }

    @Test func firstFrameAnchorsTheClockAtArrival() {
        var pacer = FramePacer()
        let decision = pacer.decide(pts: 10, arrivedAt: ms(50), now: ms(50), nextReady: false, interval: interval)
        #expect(decision == .present(at: ms(50)))
    }

    @Test func framesReadyEarlyAreShownAtTheirDueTime() {
        var pacer = FramePacer()
        _ = pacer.decide(pts: 0, arrivedAt: .zero, now: .zero, nextReady: false, interval: interval)
        pacer.presented(due: .zero, shownAt: .zero)
        let decision = pacer.decide(pts: 1.0 / 30, arrivedAt: ms(5), now: ms(5), nextReady: false, interval: interval)
        #expect(decision == .present(at: .seconds(1.0 / 30)))
        pacer.presented(due: .seconds(1.0 / 30), shownAt: .seconds(1.0 / 30))
        #expect(pacer.stats.late == 0 && pacer.stats.stalls == 0 && pacer.stats.presented == 2)
    }

    @Test func aFrameArrivingAfterItsDueTimeIsAStallAndReanchors() {
        var pacer = FramePacer()
        _ = pacer.decide(pts: 0, arrivedAt: .zero, now: .zero, nextReady: false, interval: interval)
        // Due at 100 ms, arrives at 250 ms: the renderer waited 150 ms with nothing to show.
        let late = pacer.decide(pts: 0.1, arrivedAt: ms(250), now: ms(250), nextReady: false, interval: interval)
        #expect(late == .present(at: ms(250)))
        #expect(pacer.stats.stalls == 1)
        #expect(pacer.stats.stallTime == ms(150))
        // The clock resumed from the late frame: the next one is due 100 ms after it.
        let next = pacer.decide(pts: 0.2, arrivedAt: ms(260), now: ms(260), nextReady: false, interval: interval)
        #expect(next == .present(at: ms(350)))
        #expect(pacer.stats.stalls == 1)
    }

    @Test func aFrameMoreThanAnIntervalLateIsDroppedOnlyWhenANewerOneWaits() {
        var pacer = FramePacer()
        _ = pacer.decide(pts: 0, arrivedAt: .zero, now: .zero, nextReady: false, interval: interval)
        let dropped = pacer.decide(pts: 0.1, arrivedAt: ms(10), now: ms(200), nextReady: true, interval: interval)
        #expect(dropped == .drop)
        #expect(pacer.stats.dropped == 1)
        let shownLate = pacer.decide(pts: 0.2, arrivedAt: ms(20), now: ms(260), nextReady: false, interval: interval)
        #expect(shownLate == .present(at: ms(260)))
        pacer.presented(due: ms(200), shownAt: ms(260))
        #expect(pacer.stats.late == 1)
        #expect(pacer.stats.maxLateness == ms(60))
    }

    @Test func lateTolerancesAreRespected() {
        var pacer = FramePacer()
        pacer.presented(due: ms(100), shownAt: ms(103))
        #expect(pacer.stats.late == 0)
        pacer.presented(due: ms(100), shownAt: ms(105))
        #expect(pacer.stats.late == 1)
    }

    @Test func ptsGoingBackwardsIsANewTimelineNotAStall() {
        var pacer = FramePacer()
        _ = pacer.decide(pts: 6.0, arrivedAt: .zero, now: .zero, nextReady: false, interval: interval)
        _ = pacer.decide(pts: 6.0 + 1.0 / 30, arrivedAt: ms(10), now: ms(10), nextReady: false, interval: interval)
        // After EXT-X-DISCONTINUITY the next encode starts again at 1.4 s: due one interval on.
        let spliced = pacer.decide(pts: 1.4, arrivedAt: ms(20), now: ms(20), nextReady: false, interval: interval)
        #expect(presents(spliced, at: .seconds(1.0 / 30) + interval))
        let next = pacer.decide(pts: 1.4 + 1.0 / 30, arrivedAt: ms(30), now: ms(30), nextReady: false, interval: interval)
        #expect(presents(next, at: .seconds(2.0 / 30) + interval))
        #expect(pacer.stats.stalls == 0 && pacer.stats.dropped == 0)
        #expect(pacer.stats.discontinuities == 1)
    }

    @Test func aLargeForwardJumpIsANewTimelineToo() {
        var pacer = FramePacer()
        _ = pacer.decide(pts: 0, arrivedAt: .zero, now: .zero, nextReady: false, interval: interval)
        let jumped = pacer.decide(pts: 95.0, arrivedAt: ms(5), now: ms(5), nextReady: false, interval: interval)
        #expect(presents(jumped, at: interval))
        #expect(pacer.stats.discontinuities == 1 && pacer.stats.stalls == 0)
        // A small gap (a missing frame or two) is waited through, not spliced.
        let gap = pacer.decide(pts: 95.1, arrivedAt: ms(10), now: ms(10), nextReady: false, interval: interval)
        #expect(presents(gap, at: interval + .milliseconds(100)))
        #expect(pacer.stats.discontinuities == 1)
    }

    @Test func aFrameAfterAPauseReanchorsInsteadOfCountingAStall() {
        var pacer = FramePacer()
        _ = pacer.decide(pts: 0, arrivedAt: .zero, now: .zero, nextReady: false, interval: interval)
        pacer.presented(due: .zero, shownAt: .zero)
        // Paused for ten seconds; the next frame was queued before the pause.
        pacer.resume(at: .seconds(10))
        let resumed = pacer.decide(pts: 1.0 / 30, arrivedAt: ms(5), now: .seconds(10), nextReady: true, interval: interval)
        #expect(resumed == .present(at: .seconds(10)))
        pacer.presented(due: .seconds(10), shownAt: .seconds(10))
        // The clock goes on from the resumed frame.
        let next = pacer.decide(pts: 2.0 / 30, arrivedAt: ms(6), now: .seconds(10), nextReady: false, interval: interval)
        #expect(next == .present(at: .seconds(10) + .seconds(1.0 / 30)))
        #expect(pacer.stats.stalls == 0 && pacer.stats.dropped == 0)
    }
}

@Suite("HeadlessRenderer")
struct HeadlessRendererTests {
    @Test func realTimeModeShowsEveryFrameOnAManualClock() {
        let clock = ManualFrameClock()
        let renderer = HeadlessRenderer(mode: .realTime, clock: clock, capacity: 4, interval: .milliseconds(33))
        for index in 0..<30 { renderer.submit(pts: Double(index) / 30, width: 540, height: 960) }
        let stats = renderer.finish()
        #expect(stats.presented == 30)
        #expect(stats.late == 0 && stats.dropped == 0 && stats.stalls == 0)
        // The manual clock jumped straight to the last frame's due time: one second of media.
        #expect(abs(clock.now().seconds - 29.0 / 30) < 0.001)
    }

    @Test func fastModeShowsFramesAtOnce() {
        let clock = ManualFrameClock()
        let renderer = HeadlessRenderer(mode: .fast, clock: clock)
        for index in 0..<10 { renderer.submit(pts: Double(index), width: 2, height: 2) }
        let stats = renderer.finish()
        #expect(stats.presented == 10)
        #expect(clock.now() == .zero)
    }

    /// Fast mode has no display to miss: a decoder slower than real time (a busy machine) is not a
    /// stall. Frames reach the renderer 100 ms apart on the clock but are due 33 ms apart.
    @Test func fastModeCountsNoStallForASlowDecoder() {
        let clock = ManualFrameClock()
        let renderer = HeadlessRenderer(mode: .fast, clock: clock, interval: .milliseconds(33))
        for index in 0..<30 {
            renderer.submit(pts: Double(index) / 30, width: 2, height: 2)
            clock.advance(by: .milliseconds(100))
        }
        let stats = renderer.finish()
        #expect(stats.presented == 30)
        #expect(stats.stalls == 0 && stats.late == 0 && stats.dropped == 0, "\(stats)")
    }

    /// What fast mode still sees is the stream's timeline: a second encode restarting its clock is
    /// a discontinuity spliced on, not a stall, however slowly the frames arrive.
    @Test func fastModeSplicesADiscontinuityWithoutAStall() {
        let clock = ManualFrameClock()
        let renderer = HeadlessRenderer(mode: .fast, clock: clock, interval: .milliseconds(33))
        for pts in [6.0, 6.0 + 1.0 / 30, 0.0, 1.0 / 30] {
            renderer.submit(pts: pts, width: 2, height: 2)
            clock.advance(by: .milliseconds(100))
        }
        let stats = renderer.finish()
        #expect(stats.presented == 4 && stats.discontinuities == 1)
        #expect(stats.stalls == 0, "\(stats)")
    }

    @Test func aPausedRendererHoldsItsFramesAndTakesOneMoreWithoutBlocking() {
        let clock = ManualFrameClock()
        let renderer = HeadlessRenderer(mode: .realTime, clock: clock, capacity: 2, interval: .milliseconds(33))
        renderer.pause()
        // Three frames into a queue of two: a paused renderer never blocks the decoder.
        for index in 0..<3 { renderer.submit(pts: Double(index) / 30, width: 540, height: 960) }
        #expect(renderer.stats.presented == 0)
        #expect(renderer.bufferedDuration > .zero)
        renderer.resume()
        let stats = renderer.finish()
        #expect(stats.presented == 3 && stats.stalls == 0)
    }
}
