import Foundation
import Logging
import ReelCore
import ReelMedia

/// What the viewer writes of its window: screenshots (PNG) when the window has been open their
/// time, and a recording at a constant 30 fps (a frame for every 1/30 s, the last picture again
/// when the UI fell behind). Encoding runs on a thread of its own (`reel.view.capture`): the UI
/// hands pixels over and goes on, waiting only when eight frames are already queued.
final class Capture {
    /// A screenshot taken: when, where, and the cards it shows.
    struct Shot: Sendable {
        let time: Double
        let path: String
        let cards: [DrawnCard]
    }

    /// The recording as made (as `--json` reports it).
    struct Recording: Sendable, Codable {
        let file: String
        let frames: Int
        let width: Int
        let height: Int
        let encoder: String
    }

    static let recordingFPS = 30
    /// Screenshots not taken yet.
    private(set) var pending: [ViewerOptions.Screenshot]
    private(set) var shots: [Shot] = []
    private let worker: CaptureWorker?
    private let recording: Bool
    private var recordedFrames = 0
    private var recordingSize: (width: Int, height: Int)?
    private var lastPixels: [UInt8]?

    init(screenshots: [ViewerOptions.Screenshot], record: String?) {
        pending = screenshots
        recording = record != nil
        worker = record != nil || !screenshots.isEmpty ? CaptureWorker(path: record) : nil
    }

    /// Whether the frame drawn at `time` is needed: a screenshot or a recorded frame is due.
    func wants(at time: Double) -> Bool {
        if let first = pending.first, first.time <= time { return true }
        return recording && recordedFrames < Self.framesDue(at: time)
    }

    /// Frames a recording holds once the window has been open `time` seconds: one for each
    /// 1/30 s begun.
    static func framesDue(at time: Double) -> Int {
        Int((time * Double(recordingFPS)).rounded(.down)) + 1
    }

    /// Takes what is due at `time` from the frame's pixels (RGBA, `width` x `height`).
    func take(_ pixels: [UInt8], width: Int, height: Int, at time: Double, cards: [DrawnCard]) {
        while let first = pending.first, first.time <= time {
            pending.removeFirst()
            shots.append(Shot(time: time, path: first.path, cards: cards))
            worker?.enqueue(.screenshot(pixels, width: width, height: height, path: first.path))
        }
        guard recording, let worker else { return }
        let size = recordingSize ?? (width, height)
        recordingSize = size
        let fitted = size == (width, height) ? pixels : Self.crop(pixels, width: width, height: height, to: size)
        let due = Self.framesDue(at: time)
        if due > recordedFrames {
            worker.enqueue(.frame(fitted, width: size.width, height: size.height, repeats: due - recordedFrames))
            recordedFrames = due
            lastPixels = fitted
        }
    }

    /// Ends the recording with exactly the frames of `seconds` when given (the last picture
    /// repeated up to it, nothing past it), and waits for every file to be written.
    func finish(seconds: Double?) -> Result<Recording?, ReelError> {
        guard let worker else { return .success(nil) }
        guard recording else { return worker.finish() }
        if let seconds, let lastPixels, let size = recordingSize {
            let total = Int((seconds * Double(Self.recordingFPS)).rounded(.up))
            if total > recordedFrames {
                worker.enqueue(.frame(lastPixels, width: size.width, height: size.height, repeats: total - recordedFrames))
                recordedFrames = total
            }
        }
        return worker.finish()
    }

    /// `pixels` cut or padded (black) to `size`, from the top-left: a window resized while it records.
    private static func crop(_ pixels: [UInt8], width: Int, height: Int, to size: (width: Int, height: Int)) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let columns = min(width, size.width) * 4
        for row in 0..<min(height, size.height) {
            out.replaceSubrange(row * size.width * 4 ..< row * size.width * 4 + columns,
                                with: pixels[row * width * 4 ..< row * width * 4 + columns])
        }
        return out
    }
}

/// The capture thread: encodes recorded frames with `MovieWriter` into `path` (when recording) and
/// writes screenshots, in the order the UI handed them over.
// @unchecked Sendable: `state` is guarded by `condition`; the UI's thread and the capture thread
// take it for every access.
final class CaptureWorker: @unchecked Sendable {
    enum Job: Sendable {
        case frame([UInt8], width: Int, height: Int, repeats: Int)
        case screenshot([UInt8], width: Int, height: Int, path: String)
        case finish
    }

    private struct State {
        var jobs: [Job] = []
        var failure: ReelError?
        var done: Capture.Recording?
        var finished = false
    }

    private let path: String?
    private let condition = NSCondition()
    private var state = State()
    static let queueLimit = 8

    init(path: String?) {
        self.path = path
        DedicatedThread.start(name: "reel.view.capture") { [self] in self.run() }
    }

    /// Queues a job, waiting while the queue is full.
    func enqueue(_ job: Job) {
        condition.lock()
        while state.jobs.count >= Self.queueLimit, !state.finished { condition.wait() }
        state.jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Finishes the movie and waits for the thread to be done.
    func finish() -> Result<Capture.Recording?, ReelError> {
        enqueue(.finish)
        condition.lock()
        defer { condition.unlock() }
        while !state.finished { condition.wait() }
        if let failure = state.failure { return .failure(failure) }
        return .success(state.done)
    }

    private func run() {
        var writer: MovieWriter?
        while true {
            condition.lock()
            while state.jobs.isEmpty { condition.wait() }
            let job = state.jobs.removeFirst()
            condition.broadcast()
            let failed = state.failure != nil
            condition.unlock()
            switch job {
            case .frame(let pixels, let width, let height, let repeats):
                guard !failed, let path else { continue }
                do {
                    if writer == nil { writer = try MovieWriter(path: path, width: width, height: height, framesPerSecond: Capture.recordingFPS) }
                    for _ in 0..<repeats {
                        try pixels.withUnsafeBytes { try writer?.append(rgba: $0, stride: width * 4) }
                    }
                } catch {
                    fail(error)
                }
            case .screenshot(let pixels, let width, let height, let path):
                Self.writePNG(pixels, width, height, path)
            case .finish:
                var recording: Capture.Recording?
                if let writer, let path {
                    do {
                        try writer.finish()
                        recording = Capture.Recording(file: path, frames: writer.frames, width: writer.width, height: writer.height,
                                                      encoder: writer.encoder)
                    } catch {
                        fail(error)
                    }
                }
                writer = nil
                condition.lock()
                state.done = recording
                state.finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }

    private func fail(_ error: any Error) {
        let failure = error as? ReelError ?? ReelError(.encodeFailed, "recording '\(path ?? "")' failed: \(error)")
        condition.lock()
        if state.failure == nil { state.failure = failure }
        condition.unlock()
    }

    /// Writes a screenshot; a failure is a warning (the session goes on).
    static func writePNG(_ pixels: [UInt8], _ width: Int, _ height: Int, _ path: String) {
        do {
            let png = try PNGEncoder.encode(rgba: pixels, width: width, height: height)
            try Data(png).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            ReelLog.media.warning("cannot write the screenshot '\(path)': \((error as? ReelError)?.description ?? error.localizedDescription)")
        }
    }
}
