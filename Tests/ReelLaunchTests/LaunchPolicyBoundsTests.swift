import Foundation
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// The launch policy against a hostile configuration and a wrong clock: downloads capped by count
/// and bytes, a clock that goes back gives no negative time away, and a last display in the
/// future holds a splash back one interval, not until the clock catches up.
@Suite("Launch policy bounds")
struct LaunchPolicyBoundsTests {
    /// 100 open splashes, each with an asset of its own.
    static let crowd = (0..<100).map { splash(String(format: "s%03d", $0), from: "2026-11-20T00:00:00Z", to: "2026-12-01T00:00:00Z") }

    @Test func downloadsStopAtTheAssetCap() {
        var app = PolicyDriver(parameters: PolicyDriver.parameters(maxAssets: 5), entries: Self.crowd)
        _ = app.event(.launch, at: "2026-11-24T08:00:00Z")
        #expect(app.downloaded.count == 5, "\(app.downloaded.count) downloaded")
        #expect(app.policy.assets.count == 5)
        // Later events start no more: the five kept fill the cap.
        _ = app.event(.foreground, at: "2026-11-25T08:00:00Z")
        #expect(app.downloaded.count == 5)
    }

    @Test func theCapIsNamedWhenItHoldsASplashBack() {
        var app = PolicyDriver(parameters: PolicyDriver.parameters(maxAssets: 2), entries: [
            splash("a", from: "2026-11-20T00:00:00Z", to: "2026-12-01T00:00:00Z", priority: 3),
            splash("b", from: "2026-11-20T00:00:00Z", to: "2026-12-01T00:00:00Z", priority: 2),
            splash("c", from: "2026-11-21T00:00:00Z", to: "2026-12-01T00:00:00Z", priority: 1),
        ])
        _ = app.event(.launch, at: "2026-11-24T08:00:00Z")
        #expect(app.downloaded == [asset("a"), asset("b")], "the soonest windows first")
        let decision = app.event(.foreground, at: "2026-11-24T08:01:00Z")
        #expect(decision.splashID == "b")
        let choice = app.policy.splashChoice(at: date("2026-11-24T08:01:00Z"))
        #expect(choice.reason == .eligible)
        var blocked = app.policy
        // With "b" shown and an interval, "c" is the best open one; its asset is held back by the cap.
        _ = blocked.assetStored(asset("b"), .invalid("test"), at: date("2026-11-24T08:02:00Z"))
        _ = blocked.assetStored(asset("a"), .invalid("test"), at: date("2026-11-24T08:02:00Z"))
        let reason = blocked.splashChoice(at: date("2026-11-24T08:02:00Z"))
        #expect(reason.reason == .assetNotCached)
        #expect(reason.detail == "'c': asset not cached: launch.splash.maxAssets (2) assets are kept or downloading", "\(reason.detail)")
    }

    @Test func downloadsStopAtTheByteCap() {
        // 1 MiB assets, 3 MiB in all: a download starts only while one more of launch.splash.maxBytes fits.
        var app = PolicyDriver(parameters: PolicyDriver.parameters(maxTotalBytes: 3 << 20), entries: Self.crowd)
        app.assetSize = 1 << 20
        _ = app.event(.launch, at: "2026-11-24T08:00:00Z")
        #expect(app.downloaded.count == 3, "\(app.downloaded.count) downloaded")
        #expect(app.policy.assetBytes.values.reduce(0, +) == 3 << 20)
    }

    @Test func aClockThatGoesBackGivesNoNegativeTimeAway() {
        var policy = LaunchPolicy(parameters: PolicyDriver.parameters())
        _ = policy.handle(LaunchEvent(time: date("2026-11-24T08:00:00Z"), kind: .launch))
        _ = policy.handle(LaunchEvent(time: date("2026-11-24T09:00:00Z"), kind: .background))
        // The clock is set back two hours.
        let back = policy.handle(LaunchEvent(time: date("2026-11-24T07:00:00Z"), kind: .foreground)).decision
        #expect(back.show == .nothing && back.reason == .quickReturn)
        #expect(back.detail.hasPrefix("away 0 s (the clock went back 2 h); "), "\(back.detail)")
        let crash = policy.handle(LaunchEvent(time: date("2026-11-24T06:00:00Z"), kind: .crash)).decision
        #expect(crash.detail.hasPrefix("crashed 0 s into the session"), "\(crash.detail)")
    }

    @Test func aLastDisplayInTheFutureHoldsASplashBackOneIntervalNotUntilTheClockCatchesUp() {
        var state = LaunchState()
        state.lifecycle.launches = 3
        state.lifecycle.lastEventAt = date("2026-11-24T07:00:00Z")
        state.lastDisplayed["snowfall"] = date("2027-11-24T08:00:00Z")
        let snowfall = splash("snowfall", from: "2026-11-20T00:00:00Z", to: "2027-01-01T00:00:00Z", every: 60)
        let configuration = SplashConfiguration(url: PolicyDriver.configurationURL, fetchedAt: date("2026-11-24T07:59:00Z"), entries: [snowfall])
        var policy = LaunchPolicy(parameters: PolicyDriver.parameters(), state: state, configuration: configuration,
                                  assets: [asset("snowfall"): .valid])
        let first = policy.handle(LaunchEvent(time: date("2026-11-24T08:00:00Z"), kind: .launch))
        #expect(first.decision.splashReason == .intervalNotElapsed, "\(first.decision.detail)")
        #expect(first.decision.detail.hasSuffix("'snowfall' was shown 0 s ago; its interval is 1 h"), "\(first.decision.detail)")
        #expect(first.actions.contains(.recordDisplay(splash: "snowfall", at: date("2026-11-24T08:00:00Z"))), "the clamp is persisted")
        _ = policy.handle(LaunchEvent(time: date("2026-11-24T08:05:00Z"), kind: .background))
        #expect(policy.handle(LaunchEvent(time: date("2026-11-24T09:00:00Z"), kind: .foreground)).decision.show == .splash("snowfall"))
    }
}
