import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelHarness
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// Preload in a session (simulated: the coordinator's decisions in virtual time): a fling is seen coming to rest, the cards where it lands are
/// asked for before it rests, and the play there finds its card prepared; the summary says how
/// far each played card had got and where prefetch's bytes went.
@Suite("Feed session preload")
struct FeedSessionPreloadTests {
    /// Rests on the first screen, then one fling (released at `v0`, decaying as a platform scroll
    /// view's with τ 0.5 s, sampled at 30 Hz until under 20 points per second), then rests.
    static func flingTrace(v0: Double = 6000, restBefore: Double = 2, restAfter: Double = 3) -> (trace: ScrollTrace, rest: Double) {
        var samples = [ScrollSample(time: 0, y: 0)]
        let tau = 0.5
        var t = 0.0
        while v0 * exp(-t / tau) > 20 {
            t += 1.0 / 30
            let time = ((restBefore + t) * 1000).rounded() / 1000
            samples.append(ScrollSample(time: time, y: (v0 * tau * (1 - exp(-t / tau)) * 10).rounded() / 10))
        }
        let rest = samples.last!.time
        samples.append(ScrollSample(time: rest + restAfter, y: samples.last!.y))
        return (ScrollTrace(samples: samples), rest)
    }

    @Test("the card a fling lands on is asked for while it flies, and the summary says how far each played card got")
    func aFlingsLandingIsPrepared() async throws {
        let flingStart = 3.0
        let (trace, rest) = Self.flingTrace(restBefore: flingStart)
        // Media for one screen ahead at rest (the default reaches three, where this fling lands),
        // so the landing card needs the prediction to be asked for its media.
        let run = try await FeedSessionTests.run(trace: trace, settings: ["preload.mediaScreens=1"], engine: .simulate)
        let events = run.result.events, summary = run.result.summary
        #expect(FeedSessionTests.violations(events, config: run.config).isEmpty)
        // The last play is the card the fling came to rest on (it may start while the fling is
        // still slowing down, once visibility settles).
        let starts = events.compactMap { event -> (time: Double, start: SessionEvent.PlayStart)? in
            if case .playStart(let start) = event.kind { (event.time, start) } else { nil }
        }
        let landing = try #require(starts.last, "nothing played")
        let played = landing.start
        #expect(landing.time > flingStart, "the last play, \(played.card), started before the fling")
        // It was asked for while the fling flew, before it rested. (How far it got before its
        // play is timing, which a loaded test machine skews: the sweeps measure that, and the
        // line printed below shows it.)
        let asked = events.filter {
            if case .prefetchQueued(let queued) = $0.kind { queued.card == played.card } else { false }
        }.map(\.time)
        let askedInFlight = try #require(asked.first { $0 > flingStart && $0 <= landing.time },
                                         "\(played.card) was not asked for during the fling (asked at \(asked))")
        #expect(askedInFlight < rest)
        let raised = events.filter {
            if case .preload(let preload) = $0.kind { preload.card == played.card } else { false }
        }.map(\.time)
        // The summary's new figures are there and add up.
        #expect(summary.warm.plays == summary.plays - 1)
        #expect(summary.coldStartTTFFMs != nil || summary.abandonedBeforeFirstFrame > 0)
        #expect(summary.prefetch.stageAtPlay.total == summary.plays)
        #expect(summary.prefetch.hitRatio != nil)
        let waste = summary.prefetch.waste
        #expect(waste.scrolledPast + waste.cancelled + waste.evicted + waste.sessionEnded == summary.prefetch.wastedBytes)
        print("preload: \(played.card) asked at \(askedInFlight) s, stages reached at \(raised), played at \(landing.time) s, rest \(rest) s, stage \(played.stage.map(\.description) ?? "-"); summary \(summary.json)")
    }

    @Test("with preload off, prefetch follows the visibility ranges and the summary still adds up")
    func preloadOff() async throws {
        let (trace, _) = Self.flingTrace()
        let run = try await FeedSessionTests.run(trace: trace, settings: ["preload.enabled=false"], engine: .simulate)
        let events = run.result.events, summary = run.result.summary
        #expect(FeedSessionTests.violations(events, config: run.config).isEmpty)
        #expect(events.contains { if case .prefetchQueued(let queued) = $0.kind { queued.category == .page } else { false } },
                "the page category is the visibility path's")
        let waste = summary.prefetch.waste
        #expect(waste.scrolledPast + waste.cancelled + waste.evicted + waste.sessionEnded == summary.prefetch.wastedBytes)
    }
}
