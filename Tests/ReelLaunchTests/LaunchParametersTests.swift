import Foundation
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// `launch.*` through the configuration layers: the versioned splash flag against `app.version`,
/// and the loading animation's length.
@Suite("Launch parameters")
struct LaunchParametersTests {
    static let versionedFlag = #"{"launch.splash.enabled": {"value": true, "minVersion": "24.0"}}"#

    struct FlagCase: Sendable, CustomTestStringConvertible {
        var layers: [ConfigSource]
        var expected: SplashFlag
        var testDescription: String { "\(layers.map(\.name)) -> \(expected)" }
    }

    static let flagCases: [FlagCase] = [
        FlagCase(layers: [], expected: .off),
        FlagCase(layers: [.json(versionedFlag, name: "flags"), .assignments(["app.version=23.9"])],
                 expected: .versionTooOld(needs: ReelVersion("24.0")!, have: ReelVersion("23.9")!)),
        FlagCase(layers: [.json(versionedFlag, name: "flags"), .assignments(["app.version=24.0"])], expected: .on),
        FlagCase(layers: [.json(versionedFlag, name: "flags"), .assignments(["app.version=24.1.3"])], expected: .on),
        // Reel's own version (0.1.0) when app.version is not set.
        FlagCase(layers: [.json(versionedFlag, name: "flags")],
                 expected: .versionTooOld(needs: ReelVersion("24.0")!, have: ReelVersion.current)),
        // A plain false on top wins over the versioned true: off, not too old.
        FlagCase(layers: [.json(versionedFlag, name: "flags"), .assignments(["launch.splash.enabled=false", "app.version=24.1"])],
                 expected: .off),
        // A versioned false that is skipped does not make the flag "too old".
        FlagCase(layers: [.json(#"{"launch.splash.enabled": {"value": false, "minVersion": "30"}}"#, name: "flags")], expected: .off),
        FlagCase(layers: [.assignments(["launch.splash.enabled=true"])], expected: .on),
    ]

    @Test(arguments: flagCases)
    func splashFlagFromTheLayers(_ flagCase: FlagCase) throws {
        let resolution = try ConfigResolver().resolve(flagCase.layers)
        #expect(SplashFlag(resolution: resolution) == flagCase.expected)
        #expect(try LaunchParameters(resolution: resolution).splashFlag == flagCase.expected)
    }

    @Test func keysBecomeParameters() throws {
        let resolution = try ConfigResolver().resolve([.assignments([
            "launch.sessionTimeoutMinutes=45", "launch.crashGuardSeconds=20", "launch.splash.maxFPS=25",
            "launch.splash.maxSeconds=2.5", "launch.splash.maxBytes=5000", "launch.splash.downloadAheadHours=1",
            "launch.splash.configRefreshMinutes=15", "launch.splash.configURL=https://cdn.example/splash.json",
            "launch.loading.cycleSeconds=1.5",
        ])])
        let parameters = try LaunchParameters(resolution: resolution)
        #expect(parameters.sessionTimeoutSeconds == 2700)
        #expect(parameters.crashGuardSeconds == 20)
        #expect(parameters.assetLimits == SplashAssetLimits(maxFPS: 25, maxSeconds: 2.5, maxBytes: 5000))
        #expect(parameters.downloadAheadSeconds == 3600)
        #expect(parameters.configurationRefreshSeconds == 900)
        #expect(parameters.configurationURL?.absoluteString == "https://cdn.example/splash.json")
        #expect(parameters.loading.minimumSeconds == 1.5 + 0.3 + 0.4)
    }

    @Test func aConfigURLWithAnotherSchemeIsAnError() throws {
        let resolution = try ConfigResolver().resolve([.assignments(["launch.splash.configURL=ftp://cdn.example/splash.json"])])
        let error = try #require(throws: ReelError.self) { try LaunchParameters(resolution: resolution) }
        #expect(error.code == .invalidConfig)
        #expect(error.message.contains("launch.splash.configURL") && error.message.contains("ftp"))
    }

    @Test(arguments: [(0.0, 1), (0.2, 1), (1.0, 1), (1.01, 2), (2.5, 3)])
    func theLoadingAnimationPlaysWholeCycles(readyAfter: Double, cycles: Int) {
        let plan = LoadingAnimationPlan(cycleSeconds: 1.0, postDelaySeconds: 0.3, fadeSeconds: 0.4)
        #expect(plan.cycles(readyAfter: readyAfter) == cycles)
        #expect(abs(plan.totalSeconds(readyAfter: readyAfter) - (Double(cycles) + 0.7)) < 1e-9)
    }
}
