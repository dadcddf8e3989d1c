import Foundation
import ReelCore

/// Checks and draws Lottie assets with rlottie in this process, on a thread of its own: every
/// rlottie call (parse, render) is blocking C work, kept off the cooperative pool, and one
/// thread means rlottie's shared state is never touched from two threads. A document reaches
/// rlottie only after it parsed as JSON and passed `LottieInspection` within its bounds.
///
/// rlottie cannot be bounded from inside the process: an asset within every bound Reel counts
/// may still take more memory or time than the app can spare, or crash rlottie. Check an asset
/// from the network in a child process first (`ChildProcessAssetChecker`); draw it here once
/// that check drew every frame. As a `SplashAssetChecker` this one suits assets known to be
/// safe (tests, benchmarks); it ignores the limits on the check's memory and time.
public actor LottieRenderer: SplashAssetChecker {
    private let executor = DedicatedThreadExecutor(name: "reel.lottie")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Largest document read at all, also when measuring an asset past its limits.
    public static let maxReadBytes = 16 << 20

    public init() {}

    deinit { executor.shutdown() }

    /// Checks an asset against `limits` in this process (`LottieAssetCheck.run`).
    public func check(_ bytes: [UInt8], limits: SplashAssetLimits, measuringPastLimits: Bool = false) -> SplashAssetReport {
        LottieAssetCheck.run(bytes, limits: limits, measuringPastLimits: measuringPastLimits)
    }

    /// Draws frame `frame` (0-based) of an asset at its canvas size. Throws `.invalidInput`
    /// naming the problem when the document is not a drawable Lottie animation or the frame is
    /// out of range; `name` names the asset in the message.
    public func render(_ bytes: [UInt8], frame: Int, name: String) throws -> RGBAImage {
        guard bytes.count <= Self.maxReadBytes else {
            throw ReelError(.invalidInput, "'\(name)' is larger than \(Self.maxReadBytes) bytes")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes, rejectingDuplicateKeys: true)
        } catch {
            throw ReelError(.invalidInput, "'\(name)' is not JSON: \(error)", cause: error)
        }
        let inspection = LottieInspection(document)
        guard inspection.problems.isEmpty, let width = inspection.width, let height = inspection.height else {
            throw ReelError(.invalidInput, "'\(name)' cannot be drawn: \(inspection.problems.joined(separator: "; "))")
        }
        guard let animation = LottieAnimation(bytes: bytes, key: Self.cacheKey(bytes)) else {
            throw ReelError(.invalidInput, "'\(name)': rlottie cannot read it")
        }
        let count = animation.frameCount
        guard (0..<count).contains(frame) else {
            throw ReelError(.invalidInput, "'\(name)' has frames 0...\(max(0, count - 1)); there is no frame \(frame)")
        }
        var buffer = [UInt32](repeating: 0, count: width * height)
        animation.render(frame: frame, into: &buffer, width: width, height: height)
        return RGBAImage(premultipliedARGB: buffer, width: width, height: height)
    }

    /// A name for the document in rlottie's model cache (where built in), which returns the
    /// cached model for a key it has seen: the content's hash and length, so two documents
    /// never share one.
    static func cacheKey(_ bytes: [UInt8]) -> String {
        "reel-" + String(XXHash64.hash(bytes), radix: 16) + "-\(bytes.count)"
    }
}
