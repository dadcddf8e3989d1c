import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
#endif

/// The whole check of a splash asset, in the calling thread: size, JSON, Lottie structure and
/// cost, frame rate, length, then rlottie parses it and draws every frame at the canvas size,
/// timed. rlottie cannot be bounded from inside a process, so this runs where a crash or a
/// runaway costs nothing but that process: the child of `ChildProcessAssetChecker`
/// (`SplashAssetChild`), a fuzz target under its own limits, or `LottieRenderer` for assets
/// already checked so.
public enum LottieAssetCheck {
    /// Checks `bytes` against `limits`. With `measuringPastLimits` (`reel splash check`) an asset
    /// over its fps, length or size limits is still drawn, so its figures are known; the
    /// structure and cost bounds always hold. Otherwise the check stops at the first group of
    /// problems.
    ///
    /// Render time is a criterion: the 95th percentile of a frame must be within the frame
    /// interval of the asset's own frame rate. Drawing stops early once it cannot be (more slow
    /// frames than the 5 % allowed) or a frame takes more than `LottieLimits.maxFrameSeconds`.
    /// A frame's time is the CPU time of the drawing thread (rlottie draws in the caller's
    /// thread): what drawing costs, not how long other processes held the core, so a check made
    /// at a busy launch does not refuse an asset that draws in a fraction of a millisecond.
    public static func run(_ bytes: [UInt8], limits: SplashAssetLimits, measuringPastLimits: Bool = false) -> SplashAssetReport {
        var report = SplashAssetReport(bytes: bytes.count)
        if bytes.count > limits.maxBytes {
            report.problems.append("\(bytes.count) bytes, more than launch.splash.maxBytes (\(limits.maxBytes))")
            if !measuringPastLimits || bytes.count > LottieRenderer.maxReadBytes { return report }
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes, rejectingDuplicateKeys: true)
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
        report.cost = inspection.cost
        report.problems += inspection.problems
        guard inspection.problems.isEmpty, let frames = inspection.frames, let fps = inspection.frameRate,
              let seconds = inspection.seconds, let width = inspection.width, let height = inspection.height else {
            // Never valid without being drawn.
            if report.problems.isEmpty { report.problems.append("its frames or canvas cannot be read") }
            return report
        }
        if fps > limits.maxFPS {
            report.problems.append("\(JSONWriter.number(fps)) fps, more than launch.splash.maxFPS (\(JSONWriter.number(limits.maxFPS)))")
        }
        if seconds > limits.maxSeconds {
            report.problems.append("\(String(format: "%.2f", seconds)) s long, more than launch.splash.maxSeconds (\(JSONWriter.number(limits.maxSeconds)))")
        }
        if !report.problems.isEmpty && (!measuringPastLimits || frames > LottieLimits.maxMeasuredFrames) { return report }
        guard let animation = LottieAnimation(bytes: bytes, key: LottieRenderer.cacheKey(bytes)) else {
            report.problems.append("rlottie cannot read it")
            return report
        }
        let count = animation.frameCount
        guard count > 0, count <= LottieLimits.maxMeasuredFrames else {
            report.problems.append("rlottie counts \(count) frames")
            return report
        }
        // What is drawn is what rlottie counts.
        report.frames = count
        report.problems += draw(animation, frames: count, fps: fps, width: width, height: height, into: &report)
        return report
    }

    /// Draws every frame (or until the render time criterion fails), timing each.
    private static func draw(_ animation: LottieAnimation, frames count: Int, fps: Double, width: Int, height: Int,
                             into report: inout SplashAssetReport) -> [String] {
        let intervalMs = 1000 / fps
        // p95 within the interval: at most this many frames may be slower.
        let allowedSlow = count - Int((Double(count) * 0.95).rounded(.up))
        var buffer = [UInt32](repeating: 0, count: width * height)
        var times: [Double] = []
        times.reserveCapacity(count)
        var drawnFrames = 0
        var slow = 0
        var stopped: String?
        for frame in 0..<count {
            for index in buffer.indices { buffer[index] = 0 }
            let start = threadCPUMilliseconds()
            animation.render(frame: frame, into: &buffer, width: width, height: height)
            let ms = max(0, threadCPUMilliseconds() - start)
            times.append(ms)
            if buffer.contains(where: { $0 >> 24 != 0 }) { drawnFrames += 1 }
            if ms > intervalMs { slow += 1 }
            if ms > LottieLimits.maxFrameSeconds * 1000 {
                stopped = "frame \(frame) took \(format(ms)) of CPU to draw at \(width)x\(height) (more than \(format(LottieLimits.maxFrameSeconds * 1000)); the frame interval at \(JSONWriter.number(fps)) fps is \(format(intervalMs)))"
                break
            }
            if slow > allowedSlow {
                stopped = "\(slow) of the first \(frame + 1) frames took longer than the frame interval, \(format(intervalMs)) at \(JSONWriter.number(fps)) fps: the 95th percentile of \(count) frames cannot be within it"
                break
            }
        }
        report.renderedFrames = times.count
        let distribution = Distribution(times)
        report.renderMs = distribution.percentiles
        var problems: [String] = []
        if let stopped {
            problems.append("too slow to draw: \(stopped)")
        } else if let p95 = distribution.p95, p95 > intervalMs {
            problems.append("too slow to draw: p95 \(format(p95)) a frame at \(width)x\(height), more than the frame interval, \(format(intervalMs)) at \(JSONWriter.number(fps)) fps")
        }
        if drawnFrames == 0 && stopped == nil {
            problems.append("every frame is blank: rlottie draws nothing of it")
        }
        return problems
    }

    /// CPU time this thread has used, in milliseconds. The corresponding C function is
    /// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`.
    private static func threadCPUMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }

    private static func format(_ ms: Double) -> String {
        ms >= 1000 ? String(format: "%.2f s", ms / 1000) : String(format: "%.1f ms", ms)
    }
}
