import Foundation
import ReelLaunch
import ReelSplash
import Testing

/// One scripted run of the launch policy for the table-driven tests: the configuration the
/// service serves, the flag, and steps (events with the decision expected, network changes,
/// checks of the background work).
struct LaunchScenario: Sendable, CustomTestStringConvertible {
    /// What a launch or foreground should decide.
    struct Expect: Sendable, Equatable, CustomStringConvertible {
        var show: LaunchDecision.Show
        var reason: LaunchReason
        var splashReason: LaunchReason?

        static func splash(_ id: String) -> Expect { Expect(show: .splash(id), reason: .eligible, splashReason: nil) }
        static func loading(_ reason: LaunchReason, noSplash: LaunchReason) -> Expect {
            Expect(show: .loadingAnimation, reason: reason, splashReason: noSplash)
        }
        static func nothing(noSplash: LaunchReason) -> Expect { Expect(show: .nothing, reason: .quickReturn, splashReason: noSplash) }
        static let notALaunch = Expect(show: .nothing, reason: .notALaunch, splashReason: nil)

        init(show: LaunchDecision.Show, reason: LaunchReason, splashReason: LaunchReason?) {
            self.show = show
            self.reason = reason
            self.splashReason = splashReason
        }

        init(_ decision: LaunchDecision) {
            self.init(show: decision.show, reason: decision.reason, splashReason: decision.splashReason)
        }

        var description: String {
            switch show {
            case .splash(let id): "splash \(id)"
            case .loadingAnimation: "loadingAnimation (\(reason); \(splashReason.map { "\($0)" } ?? "-"))"
            case .nothing: "nothing (\(reason); \(splashReason.map { "\($0)" } ?? "-"))"
            }
        }
    }

    enum Step: Sendable {
        case event(LaunchEvent.Kind, String, Expect)
        /// The network comes and goes.
        case online(Bool)
        /// The service serves these splashes from now on.
        case configure([SplashEntry])
        /// A download of this splash's asset finds this.
        case assetFinds(String, SplashAssetStatus)
        /// The splashes whose assets were downloaded so far, in order.
        case expectDownloaded([String])
        /// The splashes whose assets were deleted so far, in order.
        case expectDeleted([String])

        static func launch(_ time: String, _ expect: Expect) -> Step { .event(.launch, time, expect) }
        static func foreground(_ time: String, _ expect: Expect) -> Step { .event(.foreground, time, expect) }
        static func background(_ time: String) -> Step { .event(.background, time, .notALaunch) }
        static func crash(_ time: String) -> Step { .event(.crash, time, .notALaunch) }
    }

    var name: String
    var entries: [SplashEntry]
    var flag: SplashFlag = .on
    var start = "2026-11-24T00:00:00Z"
    var steps: [Step]

    var testDescription: String { name }

    /// Runs the steps on a manual clock, recording each difference from what was expected.
    func run() {
        var driver = PolicyDriver(parameters: PolicyDriver.parameters(flag: flag), entries: entries, start: start)
        for (index, step) in steps.enumerated() {
            switch step {
            case .event(let kind, let time, let expected):
                let decision = driver.event(kind, at: time)
                #expect(Expect(decision) == expected, "step \(index): \(kind) at \(time): \(decision.detail)")
            case .online(let online):
                driver.online = online
            case .configure(let entries):
                driver.entries = entries
            case .assetFinds(let id, let status):
                driver.assetStatus[asset(id)] = status
            case .expectDownloaded(let ids):
                #expect(driver.downloaded == ids.map(asset), "step \(index)")
            case .expectDeleted(let ids):
                #expect(driver.deleted == ids.map(asset), "step \(index)")
            }
        }
    }
}
