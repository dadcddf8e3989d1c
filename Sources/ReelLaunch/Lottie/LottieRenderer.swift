import Foundation
import ReelCore
import ReelNet

/// Checks and draws Lottie assets with rlottie, on a thread of its own: every rlottie call (parse,
/// render) is blocking C work, kept off the cooperative pool, and one thread means rlottie's
/// shared caches are never touched from two threads. A document reaches rlottie only after it
/// parsed as JSON and passed `LottieInspection` within the size limits.
public actor LottieRenderer {
    private let executor = DedicatedThreadExecutor(name: "reel.lottie")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Largest document read at all, also when measuring an asset past its limits.
    public static let maxReadBytes = 16 << 20

    public init() {}

    deinit { executor.shutdown() }

    /// Checks an asset against `limits`: size, JSON, Lottie structure, frame rate, length, then
    /// rlottie parses it and every frame is drawn at the canvas size (timed). With
    /// `measuringPastLimits` (`reel splash check`) an asset over its limits is still drawn, so
    /// its figures are known; otherwise the check stops at the first group of problems.
    public func check(_ bytes: [UInt8], limits: SplashAssetLimits, measuringPastLimits: Bool = false) -> SplashAssetReport {
        var report = SplashAssetReport(bytes: bytes.count)
        if bytes.count > limits.maxBytes {
            report.problems.append("\(bytes.count) bytes, more than launch.splash.maxBytes (\(limits.maxBytes))")
            if !measuringPastLimits || bytes.count > Self.maxReadBytes { return report }
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes)
        } catch {
            report.problems.append("not JSON: \(error)")
            return report
        }
        let inspection = LottieInspection(document)
        report.fps = inspection.frameRate
        report.frames = inspection.frames
        report.seconds = inspection.seconds
        report.width = inspection.width
        report.height = inspection.height
        report.problems += inspection.problems
        guard inspection.problems.isEmpty, let frames = inspection.frames, let fps = inspection.frameRate,
              let seconds = inspection.seconds, let width = inspection.width, let height = inspection.height else {
            return report
        }
        if fps > limits.maxFPS {
            report.problems.append("\(JSONWriter.number(fps)) fps, more than launch.splash.maxFPS (\(JSONWriter.number(limits.maxFPS)))")
        }
        if seconds > limits.maxSeconds {
            report.problems.append("\(String(format: "%.2f", seconds)) s long, more than launch.splash.maxSeconds (\(JSONWriter.number(limits.maxSeconds)))")
        }
        if !report.problems.isEmpty && (!measuringPastLimits || frames > LottieLimits.maxMeasuredFrames) { return report }
        guard let animation = LottieAnimation(bytes: bytes, key: Self.cacheKey(bytes)) else {
            report.problems.append("rlottie cannot read it")
            return report
        }
        let count = animation.frameCount
        guard count > 0, count <= LottieLimits.maxMeasuredFrames else {
            report.problems.append("rlottie counts \(count) frames")
            return report
        }
        var buffer = [UInt32](repeating: 0, count: width * height)
        var times: [Double] = []
        times.reserveCapacity(count)
        var drawnFrames = 0
        let clock = ContinuousClock()
        for frame in 0..<count {
            for index in buffer.indices { buffer[index] = 0 }
            let start = clock.now
            animation.render(frame: frame, into: &buffer, width: width, height: height)
            let (whole, fraction) = start.duration(to: clock.now).components
            times.append(Double(whole) * 1000 + Double(fraction) / 1e15)
            if buffer.contains(where: { $0 >> 24 != 0 }) { drawnFrames += 1 }
        }
        report.renderMs = Distribution(times).percentiles
        if drawnFrames == 0 {
            report.problems.append("every frame is blank: rlottie draws nothing of it")
        }
        return report
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
            document = try JSONParser.parse(bytes: bytes)
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

    /// A name for the document in rlottie's model cache, which returns the cached model for a
    /// key it has seen: the content's hash and length, so two documents never share one.
    private static func cacheKey(_ bytes: [UInt8]) -> String {
        "reel-" + String(XXHash64.hash(bytes), radix: 16) + "-\(bytes.count)"
    }
}
