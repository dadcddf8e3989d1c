import Foundation
import ReelCore
import ReelLaunch
import ReelSplash
import ReelServer
import ReelTestSupport
import Testing

/// The launch controller against the CDN simulator serving `Samples/launch`: background fetches,
/// assets kept in the state folder, the state across processes, offline launches, bad input.
@Suite("Launch controller")
struct LaunchControllerTests {
    func withState<T>(_ body: (URL) async throws -> T) async throws -> T {
        let scratch = try makeScratchFolder("reel-launch-controller")
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try await body(scratch.appendingPathComponent("state"))
    }

    @Test func theFirstLaunchFetchesInTheBackgroundAndTheNextEventUsesIt() async throws {
        try await withState { state in
            try await withSampleServer(root: LaunchSamples.folder) { server in
                let configuration = server.url(for: "/splash-config.json")
                let app = await ControllerDriver.open(state: state, configuration: configuration)
                let first = await app.event(.launch, at: "2026-11-24T08:00:00Z")
                #expect(first.show == .loadingAnimation && first.reason == .firstLaunch && first.splashReason == .notConfigured)
                let bill = server.bill()
                for path in ["/splash-config.json", "/snowfall.json", "/lanterns.json", "/confetti.json"] {
                    #expect(bill.paths[path]?.responses(status: 200) == 1, "\(path): \(bill.paths[path].map { "\($0)" } ?? "not requested")")
                }
                let snapshot = await app.controller.snapshot
                #expect(snapshot.assets.count == 3 && snapshot.assets.values.allSatisfy { $0 == .valid })
                _ = await app.event(.background, at: "2026-11-24T08:05:00Z")
                let second = await app.event(.foreground, at: "2026-11-24T08:10:00Z")
                #expect(second.show == .splash("snowfall"))
                let assetURL = try #require(second.assetURL)
                let file = try #require(await app.controller.assetFile(for: assetURL))
                #expect(try Array(Data(contentsOf: file)) == LaunchSamples.bytes("snowfall.json"))
                #expect(app.warnings.all.isEmpty, "\(app.warnings.all)")
                await app.controller.close()
            }
        }
    }

    @Test func theStateOutlivesTheProcessAndServesOffline() async throws {
        try await withState { state in
            let configuration: URL = try await withSampleServer(root: LaunchSamples.folder) { server in
                let configuration = server.url(for: "/splash-config.json")
                let app = await ControllerDriver.open(state: state, configuration: configuration)
                _ = await app.event(.launch, at: "2026-11-24T08:00:00Z")
                _ = await app.event(.background, at: "2026-11-24T08:05:00Z")
                #expect(await app.event(.foreground, at: "2026-11-24T08:10:00Z").show == .splash("snowfall"))
                _ = await app.event(.background, at: "2026-11-24T08:15:00Z")
                await app.controller.close()
                return configuration
            }
            // The server is gone: a new process finds the state, the configuration and the assets.
            let app = await ControllerDriver.open(state: state, configuration: configuration, start: "2026-11-24T09:00:00Z")
            let launch = await app.event(.launch, at: "2026-11-24T09:00:00Z")
            #expect(launch.show == .loadingAnimation && launch.reason == .newSession && launch.splashReason == .intervalNotElapsed)
            _ = await app.event(.background, at: "2026-11-24T09:05:00Z")
            #expect(await app.event(.launch, at: "2026-11-26T08:00:00Z").show == .splash("lanterns"))
            _ = await app.event(.background, at: "2026-11-26T08:05:00Z")
            #expect(await app.event(.launch, at: "2026-11-27T08:00:00Z").show == .splash("black-friday"))
            let unreachable = app.warnings.all.filter { $0.contains("splash configuration '\(configuration.absoluteString)' could not be fetched") }
            #expect(!unreachable.isEmpty && unreachable.allSatisfy { $0.hasSuffix("the cached configuration stays") }, "\(app.warnings.all)")
            await app.controller.close()
        }
    }

    @Test func badSplashesAndAssetsAreSkippedWithAWarningNamingThem() async throws {
        try await withState { state in
            try await withSampleServer(root: LaunchSamples.folder) { server in
                let app = await ControllerDriver.open(state: state, configuration: server.url(for: "/splash-config-bad.json"))
                let first = await app.event(.launch, at: "2026-11-24T08:00:00Z")
                #expect(first.show == .loadingAnimation)
                let warnings = app.warnings.all
                let expected: [(String, String)] = [
                    ("splash 'backwards'", "is not after startDateTime"),
                    ("splash 'bad-date'", "is not an ISO 8601 date"),
                    ("splash 'no-asset'", "no \"assetUrl\""),
                    ("splash 'snowfall' (entry 4)", "duplicate id"),
                    ("splash 'missing-asset': asset", "could not be fetched: HTTP 404"),
                    ("splash 'too-big': asset", "2105859 bytes, more than launch.splash.maxBytes (1048576)"),
                    ("splash 'too-long': asset", "10.00 s long, more than launch.splash.maxSeconds (3)"),
                    ("splash 'too-fast': asset", "60 fps, more than launch.splash.maxFPS (30)"),
                    ("splash 'not-json': asset", "not JSON"),
                    ("splash 'text-layer': asset", "text layer"),
                ]
                for (name, reason) in expected {
                    #expect(warnings.contains { $0.contains(name) && $0.contains(reason) }, "no warning for \(name): \(warnings)")
                }
                #expect(warnings.count == expected.count, "\(warnings)")
                // The bad ones rank first (priority 1) and are held back; the good one shows.
                #expect(await app.event(.foreground, at: "2026-11-24T08:01:00Z").show == .splash("snowfall"))
                let next = await app.event(.foreground, at: "2026-11-24T08:02:00Z")
                #expect(next.show == .nothing && next.splashReason == .assetNotCached, "\(next.detail)")
                // Refused assets are not fetched again, the missing one only after the refresh period.
                let bill = server.bill()
                #expect(bill.paths["/big-2mib.json"]?.requests == 1 && bill.paths["/no-such-asset.json"]?.requests == 1)
                #expect(app.warnings.all.count == expected.count, "an unchanged configuration repeats no warning")
                await app.controller.close()
            }
        }
    }

    @Test func aConfigurationThatIsNotJSONKeepsTheCachedOne() async throws {
        try await withState { state in
            let served = try makeScratchFolder("reel-launch-served")
            defer { try? FileManager.default.removeItem(at: served) }
            for name in ["splash-config.json", "snowfall.json", "lanterns.json", "confetti.json"] {
                try FileManager.default.copyItem(at: LaunchSamples.folder.appendingPathComponent(name), to: served.appendingPathComponent(name))
            }
            try await withSampleServer(root: served) { server in
                let app = await ControllerDriver.open(state: state, configuration: server.url(for: "/splash-config.json"))
                _ = await app.event(.launch, at: "2026-11-24T08:00:00Z")
                try Data("<html>maintenance</html>".utf8).write(to: served.appendingPathComponent("splash-config.json"))
                _ = await app.event(.background, at: "2026-11-24T08:05:00Z")
                // Two hours on, the configuration is stale and fetched again: it is not JSON.
                let decision = await app.event(.foreground, at: "2026-11-24T10:00:00Z")
                #expect(decision.show == .splash("snowfall"))
                let warning = try #require(app.warnings.all.first)
                #expect(warning.contains("is not JSON") && warning.hasSuffix("the cached configuration stays"), "\(warning)")
                #expect(await app.controller.snapshot.configuration?.entries.count == 3)
                await app.controller.close()
            }
        }
    }

    @Test func aCorruptStateDatabaseIsReplacedWithAWarning() async throws {
        try await withState { state in
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            try Data("not a database, not at all".utf8).write(to: state.appendingPathComponent("launch.sqlite"))
            let app = await ControllerDriver.open(state: state, configuration: URL(string: "http://127.0.0.1:9/splash.json")!, flag: .off)
            #expect(app.warnings.all.count == 1 && app.warnings.all.first?.contains("is corrupt") == true, "\(app.warnings.all)")
            #expect(await app.event(.launch, at: "2026-11-24T08:00:00Z").reason == .firstLaunch)
            await app.controller.close()
            let again = await ControllerDriver.open(state: state, configuration: URL(string: "http://127.0.0.1:9/splash.json")!, flag: .off)
            #expect(again.warnings.all.isEmpty, "\(again.warnings.all)")
            #expect(await again.event(.launch, at: "2026-11-24T08:01:00Z").reason == .quickReturn)
            await again.controller.close()
        }
    }
}
