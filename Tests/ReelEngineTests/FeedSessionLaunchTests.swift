import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelHarness
import ReelNet
import ReelTestSupport
import Testing

/// The launch window (simulated: the coordinator's decisions in virtual time): while the animation shows, the session fetches the first page's first
/// videos (with `launch.warmFeed`), and the feed (pages, visibility, plays) starts after it.
@Suite("Feed session launch window")
struct FeedSessionLaunchTests {
    /// Still on the first screen for three seconds after the feed shows.
    static let still = ScrollTrace(samples: [ScrollSample(time: 0, y: 0), ScrollSample(time: 3, y: 0)])

    @Test("with warmFeed the first videos are asked for during the window, and nothing shows before it ends")
    func warmFeedPrefetchesDuringTheWindow() async throws {
        // Long enough that a test machine busy with other suites still gets the page and the
        // requests in before the feed shows.
        let window = 4.0
        let run = try await FeedSessionTests.run(trace: Self.still, launchSeconds: window, engine: .simulate)
        let events = run.result.events
        #expect(FeedSessionTests.violations(events, config: run.config).isEmpty)
        let firstPlay = try #require(events.compactMap { event -> (time: Double, start: SessionEvent.PlayStart)? in
            if case .playStart(let start) = event.kind { (event.time, start) } else { nil }
        }.first, "nothing played")
        let start = firstPlay.start
        #expect(firstPlay.time >= window, "a play started at \(firstPlay.time) s, inside the \(window) s launch window")
        let warmed = events.filter {
            if case .prefetchQueued(let queued) = $0.kind { $0.time < window && queued.category == .imminent } else { false }
        }
        #expect(warmed.contains { if case .prefetchQueued(let queued) = $0.kind { queued.card == start.card } else { false } },
                "\(start.card) was not asked for during the window")
        // How far the card got in the window is timing (a test machine busy with other suites
        // skews it): the line below prints it, and docs/launch.md has the measured effect.
        #expect(!events.contains { if case .visibility = $0.kind { $0.time < window } else { false } },
                "the feed was visible during the launch window")
        print("launch window \(window) s: first play \(start.card) at \(firstPlay.time) s, stage \(start.stage.map(\.description) ?? "-"), "
              + "cold start TTFF \(run.result.summary.coldStartTTFFMs ?? .nan) ms, \(warmed.count) requests in the window")
    }

    @Test("without warmFeed the window passes with nothing fetched, and the feed starts after it")
    func withoutWarmFeedNothingIsFetchedInTheWindow() async throws {
        let window = 1.0
        let run = try await FeedSessionTests.run(trace: Self.still, settings: ["launch.warmFeed=false"], launchSeconds: window, engine: .simulate)
        let events = run.result.events
        #expect(!events.contains { if case .prefetchQueued = $0.kind { $0.time < window } else { false } })
        let firstPlay = try #require(events.first { if case .playStart = $0.kind { true } else { false } })
        #expect(firstPlay.time >= window)
        #expect(run.result.summary.plays >= 1)
    }
}
