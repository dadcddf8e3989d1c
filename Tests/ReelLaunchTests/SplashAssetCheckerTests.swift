import Foundation
import OrderedCollections
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// Assets checked in a child process (`ChildProcessAssetChecker`, the built `reel` as the child):
/// an asset that takes rlottie past the child's memory, time or a crash is refused with that
/// problem and this process goes on; a program that is not a checker is an error, not a verdict.
@Suite("Splash asset checker")
struct SplashAssetCheckerTests {
    /// The defaults, but patient: a starved test machine must not refuse an asset for the time it waited.
    static let limits = SplashAssetLimits(checkSeconds: 120)

    @Test func theChildChecksASampleAsThisProcessWould() async throws {
        let bytes = try LaunchSamples.bytes("lanterns.json")
        let report = try await LaunchSamples.reelChecker.check(bytes, limits: Self.limits, measuringPastLimits: false)
        #expect(report.isValid, "\(report.problems)")
        #expect(report.frames == 72 && report.renderedFrames == 72 && report.drewEveryFrame)
        #expect(report.cost?.shapes == 13 && report.cost?.layers == 2, "\(String(describing: report.cost))")
        let usage = try #require(report.usage)
        #expect(usage.maxRSSBytes > 0 && usage.seconds > 0)
        let past = try await LaunchSamples.reelChecker.check(try LaunchSamples.bytes("fast-60fps.json"), limits: Self.limits, measuringPastLimits: true)
        #expect(past.problems == ["60 fps, more than launch.splash.maxFPS (30)"] && past.drewEveryFrame)
    }

    /// Twelve mattes and their targets at 2048x2048: within the bounds Reel counts (about 200 MB
    /// of buffers), more than a check given 192 MiB may take.
    @Test func anAssetNeedingMoreThanTheChildsMemoryIsRefused() async throws {
        let layers = (0..<6).flatMap { pair in
            [LottieBoundsTests.shapeLayer([LottieBoundsTests.group([LottieBoundsTests.rectangle(2048), LottieBoundsTests.fill])], index: 2 * pair + 1, ["td": .int(1)]),
             LottieBoundsTests.shapeLayer([LottieBoundsTests.group([LottieBoundsTests.rectangle(2048), LottieBoundsTests.fill])], index: 2 * pair + 2, ["tt": .int(1)])]
        }
        let bytes = LottieBoundsTests.document(layers, width: 2048, height: 2048, op: 3)
        var limits = Self.limits
        limits.checkMemoryBytes = 192 << 20
        let report = try await LaunchSamples.reelChecker.check(bytes, limits: limits, measuringPastLimits: false)
        #expect(report.problems == ["rlottie needs more than the 192 MiB a check may use (launch.splash.checkMemoryMiB)"], "\(report.problems)")
        #expect(!report.drewEveryFrame)
    }

    /// A thousand copies of a rectangle covering a 1024x1024 canvas: 10^9 pixels a frame, seconds
    /// where 33 ms are all a frame at 30 fps may take.
    @Test func anAssetTooSlowToDrawIsRefused() async throws {
        let bytes = LottieBoundsTests.document([LottieBoundsTests.shapeLayer([LottieBoundsTests.group([LottieBoundsTests.rectangle(2048), LottieBoundsTests.fill,
                                                                                                       LottieBoundsTests.repeater(1000)])])],
                                               width: 1024, height: 1024, op: 3)
        let report = try await LaunchSamples.reelChecker.check(bytes, limits: Self.limits, measuringPastLimits: false)
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("too slow to draw: "), "\(report.problems)")
        #expect(report.renderedFrames == 1, "drawing stopped at the first frame over the interval")
    }

    /// Faults injected by programs standing in for the child.
    static func shell(_ script: String) -> ChildProcessAssetChecker {
        ChildProcessAssetChecker(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script])
    }

    @Test func aChildThatCrashesRefusesTheAsset() async throws {
        let report = try await Self.shell("kill -SEGV $$").check(Array("{}".utf8), limits: Self.limits, measuringPastLimits: false)
        #expect(report.problems == ["rlottie crashed checking it (signal 11, Segmentation fault)"], "\(report.problems)")
        let aborted = try await Self.shell("echo \"terminate called after throwing an instance of 'std::bad_alloc'\" >&2; kill -ABRT $$")
            .check(Array("{}".utf8), limits: Self.limits, measuringPastLimits: false)
        #expect(aborted.problems == ["rlottie needs more than the 512 MiB a check may use (launch.splash.checkMemoryMiB)"], "\(aborted.problems)")
    }

    @Test func aChildThatOutlivesItsTimeIsKilled() async throws {
        var limits = Self.limits
        limits.checkSeconds = 0.5
        // The child keeps its input unread and never answers.
        let report = try await Self.shell("exec sleep 60").check(Array(repeating: 0x20, count: 1 << 20), limits: limits, measuringPastLimits: false)
        #expect(report.problems == ["checking it took more than 1 s, twice launch.splash.checkSeconds: rlottie was stopped"], "\(report.problems)")
        let usage = try #require(report.usage)
        #expect(usage.seconds >= 1 && usage.seconds < 30, "\(usage)")
    }

    @Test func aProgramThatIsNotAChildIsAnErrorNotAVerdict() async throws {
        let status = try await #require(throws: ReelError.self) {
            try await Self.shell("exit 3").check(Array("{}".utf8), limits: Self.limits, measuringPastLimits: false)
        }
        #expect(status.message.contains("ended with status 3"), "\(status.message)")
        let silent = try await #require(throws: ReelError.self) {
            try await Self.shell("cat > /dev/null").check(Array("{}".utf8), limits: Self.limits, measuringPastLimits: false)
        }
        #expect(silent.message.contains("wrote no report"), "\(silent.message)")
        let missing = try await #require(throws: ReelError.self) {
            try await ChildProcessAssetChecker(executable: URL(fileURLWithPath: "/nonexistent/reel"), arguments: [])
                .check(Array("{}".utf8), limits: Self.limits, measuringPastLimits: false)
        }
        #expect(missing.message.contains("cannot start '/nonexistent/reel'"), "\(missing.message)")
    }
}
