import Foundation
import ReelCore
import ReelLaunch
import ReelServer
import ReelSplash
import ReelTestSupport
import Testing

/// The crash guard for asset checks: the asset's row says "checking" before rlottie sees it, so a
/// process that dies in the check (a crash, a kill) leaves the asset refused for the next one,
/// which neither downloads nor checks it again: no crash loop.
@Suite("Launch controller checks")
struct LaunchControllerCheckTests {
    /// A checker that never finishes (until cancelled): a process that dies in the check.
    struct StallingChecker: SplashAssetChecker {
        let started = Watched<[Int]>([])

        func check(_ bytes: [UInt8], limits: SplashAssetLimits, measuringPastLimits: Bool) async throws -> SplashAssetReport {
            started.update { $0.append(bytes.count) }
            try await Task.sleep(for: .seconds(3600))
            throw CancellationError()
        }
    }

    /// A folder serving one splash, the snowfall.
    static func servedFolder() throws -> URL {
        let folder = try makeScratchFolder("reel-launch-check-served")
        try FileManager.default.copyItem(at: LaunchSamples.folder.appendingPathComponent("snowfall.json"), to: folder.appendingPathComponent("snowfall.json"))
        try Data(#"{"holidaySplash": [{"id": "snowfall", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2027-01-01T00:00:00Z", "assetUrl": "snowfall.json"}]}"#.utf8)
            .write(to: folder.appendingPathComponent("splash-config.json"))
        return folder
    }

    /// A first process on a fresh state that launched, downloaded the asset and is caught in its
    /// check; `body` gets the server, the state folder, the configuration's URL and that process.
    func withAProcessInItsCheck(_ body: (CDNServer, URL, URL, ControllerDriver) async throws -> Void) async throws {
        let served = try Self.servedFolder()
        let scratch = try makeScratchFolder("reel-launch-check")
        defer {
            try? FileManager.default.removeItem(at: served)
            try? FileManager.default.removeItem(at: scratch)
        }
        try await withSampleServer(root: served) { server in
            let configuration = server.url(for: "/splash-config.json")
            let stalling = StallingChecker()
            let state = scratch.appendingPathComponent("state")
            let first = await ControllerDriver.open(state: state, configuration: configuration, checker: stalling)
            _ = await first.controller.handle(LaunchEvent(time: date("2026-11-24T08:00:00Z"), kind: .launch))
            #expect(await stalling.started.wait { !$0.isEmpty }, "the check never started")
            try await body(server, state, configuration, first)
            await first.controller.close()
        }
    }

    @Test func aProcessThatDiesCheckingAnAssetLeavesItRefused() async throws {
        try await withAProcessInItsCheck { server, state, configuration, _ in
            // The next process (the first one never ends its check) finds the asset refused.
            let next = await ControllerDriver.open(state: state, configuration: configuration, start: "2026-11-24T09:00:00Z")
            let url = server.url(for: "/snowfall.json").absoluteString
            #expect(next.warnings.all == ["splash asset '\(url)' was being checked when the app ended (a crash or a kill): refused, and not checked again while it is configured"],
                    "\(next.warnings.all)")
            let launch = await next.event(.launch, at: "2026-11-24T09:00:00Z")
            #expect(launch.splashReason == .assetInvalid, "\(launch.detail)")
            #expect(launch.detail.contains("its check never finished"), "\(launch.detail)")
            #expect(server.bill().paths["/snowfall.json"]?.requests == 1, "downloaded once, by the process that died")
            await next.controller.close()
        }
    }

    @Test func aCheckCutShortByCloseSaysNothingAboutTheAsset() async throws {
        try await withAProcessInItsCheck { server, state, configuration, first in
            await first.controller.close()
            // Closed in the check: the next process downloads and checks it again.
            let next = await ControllerDriver.open(state: state, configuration: configuration, start: "2026-11-24T09:00:00Z")
            #expect(next.warnings.all.isEmpty, "\(next.warnings.all)")
            _ = await next.event(.launch, at: "2026-11-24T09:00:00Z")
            #expect(await next.event(.foreground, at: "2026-11-24T09:01:00Z").show == .splash("snowfall"))
            #expect(server.bill().paths["/snowfall.json"]?.requests == 2)
            await next.controller.close()
        }
    }
}
