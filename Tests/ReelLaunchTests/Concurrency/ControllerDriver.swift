import Foundation
import ReelCore
import ReelLaunch
import ReelNet
import ReelServer
import ReelSplash
import ReelTestSupport
import Testing

/// A `LaunchController` on a state folder, fetching over Reel's network stack, its time on a
/// `ManualClock` moved to each event: a process of the app, for the controller tests. Each
/// event waits for the background work it started, as `reel launch simulate` does.
struct ControllerDriver {
    let controller: LaunchController
    let clock: ManualClock
    let wallClock: LaunchClock
    let epoch: Date
    /// Warnings the controller gave.
    let warnings: WarningLog

    static func open(state: URL, configuration: URL, flag: SplashFlag = .on, start: String = "2026-11-24T00:00:00Z",
                     warnings: WarningLog = WarningLog(), parameters: LaunchParameters? = nil,
                     checker: any SplashAssetChecker = LaunchSamples.reelChecker) async -> ControllerDriver {
        // A starved test machine must not refuse an asset for the time its check waited for a core.
        var parameters = parameters ?? LaunchParameters(assetLimits: SplashAssetLimits(checkSeconds: 120))
        parameters.splashFlag = flag
        parameters.configurationURL = configuration
        // A starved test machine must not cut a healthy transfer: these tests count warnings.
        let factory = URLDataSourceFactory(engine: TransferEngine(options: .patient), allowLocalFiles: configuration.isFileURL)
        let clock = ManualClock()
        let epoch = date(start)
        let wallClock = LaunchClock.following(clock, from: epoch)
        let controller = await LaunchController.open(directory: state, parameters: parameters, factory: factory, checker: checker,
                                                     clock: wallClock, logger: warnings.logger)
        return ControllerDriver(controller: controller, clock: clock, wallClock: wallClock, epoch: epoch, warnings: warnings)
    }

    /// The event of `kind` at `time`; returns once the work it started is done.
    func event(_ kind: LaunchEvent.Kind, at time: String) async -> LaunchDecision {
        let ahead = date(time).timeIntervalSince(wallClock.now())
        precondition(ahead >= 0, "time goes back to \(time)")
        clock.advance(by: .milliseconds(Int64((ahead * 1000).rounded())))
        let decision = await controller.handle(LaunchEvent(time: wallClock.now(), kind: kind))
        await controller.waitUntilIdle()
        return decision
    }
}
