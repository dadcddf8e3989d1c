import Foundation
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// The launch rules, table-driven on a manual clock: each scenario is a scripted run with the
/// decision expected at every event (see `LaunchScenario`).
@Suite("Launch policy")
struct LaunchPolicyTests {
    static let snowfall = splash("snowfall", from: "2026-11-20T00:00:00Z", to: "2027-01-01T00:00:00Z", every: 720, priority: 3)
    static let lanterns = splash("lanterns", from: "2026-11-26T00:00:00Z", to: "2026-12-06T00:00:00Z", every: 1440, priority: 2)
    static let blackFriday = splash("black-friday", from: "2026-11-27T00:00:00Z", to: "2026-11-30T00:00:00Z", every: 240, priority: 1)

    static let scenarios: [LaunchScenario] = [
        LaunchScenario(name: "first launch", entries: [snowfall], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .expectDownloaded(["snowfall"]),
            .background("2026-11-24T08:05:00Z"),
            .foreground("2026-11-24T08:10:00Z", .splash("snowfall")),
            .background("2026-11-24T08:15:00Z"),
            .launch("2026-11-24T08:20:00Z", .nothing(noSplash: .intervalNotElapsed)),
        ]),
        LaunchScenario(name: "quick return and returns after 30 minutes or more", entries: [], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .background("2026-11-24T08:10:00Z"),
            .foreground("2026-11-24T08:39:59Z", .nothing(noSplash: .notConfigured)),
            .background("2026-11-24T08:40:00Z"),
            .foreground("2026-11-24T09:10:00Z", .loading(.newSession, noSplash: .notConfigured)),
            .background("2026-11-24T09:20:00Z"),
            .launch("2026-11-24T11:20:00Z", .loading(.newSession, noSplash: .notConfigured)),
            // Killed in the foreground: away since its last event.
            .launch("2026-11-24T11:25:00Z", .nothing(noSplash: .notConfigured)),
            .launch("2026-11-24T12:00:00Z", .loading(.newSession, noSplash: .notConfigured)),
            // Two backgrounds in a row: away since the first.
            .background("2026-11-24T12:10:00Z"),
            .background("2026-11-24T12:30:00Z"),
            .foreground("2026-11-24T12:40:00Z", .loading(.newSession, noSplash: .notConfigured)),
            // A crash in the background: away since the background, not since the crash.
            .background("2026-11-24T13:00:00Z"),
            .crash("2026-11-24T13:20:00Z"),
            .launch("2026-11-24T13:35:00Z", .loading(.newSession, noSplash: .notConfigured)),
        ]),
        LaunchScenario(name: "overlapping windows with priorities and intervals", entries: [snowfall, lanterns, blackFriday], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            // Lanterns opens in 40 h, Black Friday in 64 h: both within the 72 h ahead.
            .expectDownloaded(["snowfall", "lanterns", "black-friday"]),
            .background("2026-11-24T08:05:00Z"),
            .foreground("2026-11-24T08:20:00Z", .splash("snowfall")),
            .background("2026-11-24T08:30:00Z"),
            .launch("2026-11-24T12:30:00Z", .loading(.newSession, noSplash: .intervalNotElapsed)),
            .background("2026-11-24T12:40:00Z"),
            // Exactly 720 minutes after it was shown.
            .foreground("2026-11-24T20:20:00Z", .splash("snowfall")),
            .background("2026-11-24T21:15:00Z"),
            .launch("2026-11-26T00:10:00Z", .splash("lanterns")),
            .background("2026-11-26T00:20:00Z"),
            .foreground("2026-11-27T07:00:00Z", .splash("black-friday")),
            .background("2026-11-27T07:10:00Z"),
            .foreground("2026-11-27T09:00:00Z", .splash("lanterns")),
            .background("2026-11-27T09:20:00Z"),
            .foreground("2026-11-27T09:25:00Z", .splash("snowfall")),
            .background("2026-11-27T09:40:00Z"),
            .foreground("2026-11-27T09:45:00Z", .nothing(noSplash: .intervalNotElapsed)),
            .background("2026-11-27T10:00:00Z"),
            .foreground("2026-11-27T11:00:00Z", .splash("black-friday")),
            .background("2026-11-27T11:10:00Z"),
            // Black Friday has ended: its asset goes.
            .launch("2026-11-30T10:00:00Z", .splash("lanterns")),
            .expectDeleted(["black-friday"]),
        ]),
        LaunchScenario(name: "a missing priority sorts last; ties go to the earlier start, then the smaller id", entries: [
            splash("a", from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00Z", every: 100_000),
            splash("b", from: "2026-11-20T00:00:00Z", to: "2026-12-01T00:00:00Z", every: 100_000, priority: 5),
            splash("d", from: "2026-11-10T00:00:00Z", to: "2026-12-01T00:00:00Z", every: 100_000, priority: 5),
            splash("c", from: "2026-11-10T00:00:00Z", to: "2026-12-01T00:00:00Z", every: 100_000, priority: 5),
        ], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .foreground("2026-11-24T08:01:00Z", .splash("c")),
            .foreground("2026-11-24T08:02:00Z", .splash("d")),
            .foreground("2026-11-24T08:03:00Z", .splash("b")),
            .foreground("2026-11-24T08:04:00Z", .splash("a")),
            .foreground("2026-11-24T08:05:00Z", .nothing(noSplash: .intervalNotElapsed)),
        ]),
        LaunchScenario(name: "a window that opens while the app is in the background", entries: [
            splash("new-year", from: "2026-12-31T23:00:00Z", to: "2027-01-01T06:00:00Z", priority: 1),
            splash("far", from: "2027-02-01T00:00:00Z", to: "2027-02-02T00:00:00Z"),
        ], start: "2026-12-31T00:00:00Z", steps: [
            .launch("2026-12-31T20:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            // Downloaded three hours ahead of its window; the one a month out is not.
            .expectDownloaded(["new-year"]),
            .background("2026-12-31T22:50:00Z"),
            .foreground("2026-12-31T23:10:00Z", .splash("new-year")),
            .background("2026-12-31T23:20:00Z"),
            // Its window opened and closed while the app was away: its asset goes.
            .foreground("2027-01-01T07:00:00Z", .loading(.newSession, noSplash: .outsideWindow)),
            .expectDeleted(["new-year"]),
        ]),
        LaunchScenario(name: "crash guard", entries: [splash("snowfall", from: "2026-11-20T00:00:00Z", to: "2027-01-01T00:00:00Z")], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .background("2026-11-24T08:01:00Z"),
            .foreground("2026-11-24T08:02:00Z", .splash("snowfall")),
            .crash("2026-11-24T08:02:04Z"),
            .launch("2026-11-24T08:02:30Z", .nothing(noSplash: .crashGuard)),
            .background("2026-11-24T08:03:00Z"),
            .foreground("2026-11-24T08:04:00Z", .splash("snowfall")),
            // 56 s into the session: no guard.
            .crash("2026-11-24T08:05:00Z"),
            .launch("2026-11-24T08:05:20Z", .splash("snowfall")),
            // Exactly the guard's 10 s: guarded, however long the app stays away.
            .crash("2026-11-24T08:05:30Z"),
            .launch("2026-11-24T09:00:00Z", .loading(.newSession, noSplash: .crashGuard)),
            .launch("2026-11-24T09:01:00Z", .splash("snowfall")),
        ]),
        LaunchScenario(name: "the flag's minVersion above the app's version", entries: [snowfall],
                       flag: .versionTooOld(needs: ReelVersion("24.0")!, have: ReelVersion("23.9")!), steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .versionTooOld)),
            .background("2026-11-24T08:05:00Z"),
            .foreground("2026-11-24T08:10:00Z", .nothing(noSplash: .versionTooOld)),
            // Nothing is fetched for a feature that is off.
            .expectDownloaded([]),
        ]),
        LaunchScenario(name: "the flag off", entries: [snowfall], flag: .off, steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .disabled)),
            .foreground("2026-11-24T08:10:00Z", .nothing(noSplash: .disabled)),
            .expectDownloaded([]),
        ]),
        LaunchScenario(name: "offline launch with cached assets", entries: [snowfall, lanterns], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .online(false),
            .background("2026-11-24T08:05:00Z"),
            .launch("2026-11-25T08:00:00Z", .splash("snowfall")),
            .background("2026-11-25T08:05:00Z"),
            .launch("2026-11-26T08:00:00Z", .splash("lanterns")),
        ]),
        LaunchScenario(name: "offline launch without cached assets", entries: [
            splash("later", from: "2026-11-29T00:00:00Z", to: "2026-12-02T00:00:00Z"),
        ], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            // More than 72 h ahead: not downloaded yet.
            .expectDownloaded([]),
            .online(false),
            .background("2026-11-24T08:05:00Z"),
            .launch("2026-11-29T08:00:00Z", .loading(.newSession, noSplash: .assetNotCached)),
            .online(true),
            // The failed download is tried again after the refresh period (60 min), and the
            // decision never waits for it: it applies from the next event.
            .background("2026-11-29T08:10:00Z"),
            .foreground("2026-11-29T08:20:00Z", .nothing(noSplash: .assetNotCached)),
            .background("2026-11-29T08:50:00Z"),
            .foreground("2026-11-29T09:00:00Z", .nothing(noSplash: .assetNotCached)),
            .foreground("2026-11-29T09:01:00Z", .splash("later")),
            .expectDownloaded(["later", "later"]),
        ]),
        LaunchScenario(name: "offline first launch", entries: [snowfall], steps: [
            .online(false),
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .background("2026-11-24T08:05:00Z"),
            .launch("2026-11-24T09:00:00Z", .loading(.newSession, noSplash: .notConfigured)),
        ]),
        LaunchScenario(name: "an asset that fails validation", entries: [
            splash("fast", from: "2026-11-20T00:00:00Z", to: "2027-01-01T00:00:00Z", priority: 1), snowfall,
        ], steps: [
            .assetFinds("fast", .invalid("60 fps, more than launch.splash.maxFPS (30)")),
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .foreground("2026-11-24T08:01:00Z", .splash("snowfall")),
            .foreground("2026-11-24T08:02:00Z", .nothing(noSplash: .assetInvalid)),
            // A refused asset is not downloaded again while its URL stays configured.
            .background("2026-11-24T09:50:00Z"),
            .foreground("2026-11-24T10:00:00Z", .nothing(noSplash: .assetInvalid)),
            .expectDownloaded(["fast", "snowfall"]),
        ]),
        LaunchScenario(name: "asset cleanup", entries: [snowfall, lanterns], steps: [
            .launch("2026-11-24T08:00:00Z", .loading(.firstLaunch, noSplash: .notConfigured)),
            .expectDownloaded(["snowfall", "lanterns"]),
            .configure([snowfall]),
            // Within the refresh period the cached configuration stands.
            .foreground("2026-11-24T08:30:00Z", .splash("snowfall")),
            .expectDeleted([]),
            // After it, the configuration is fetched again and lanterns' asset deleted.
            .foreground("2026-11-24T09:00:00Z", .loading(.newSession, noSplash: .intervalNotElapsed)),
            .expectDeleted(["lanterns"]),
            .configure([]),
            .foreground("2026-11-24T10:00:00Z", .loading(.newSession, noSplash: .intervalNotElapsed)),
            .expectDeleted(["lanterns", "snowfall"]),
            .foreground("2026-11-24T10:01:00Z", .nothing(noSplash: .notConfigured)),
        ]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: LaunchScenario) {
        scenario.run()
    }
}
