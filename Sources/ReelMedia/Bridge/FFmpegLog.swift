import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import Foundation

/// FFmpeg's log, captured per thread: a playback collects the errors FFmpeg prints while it
/// works on the playback's thread (a segment that failed to load, corrupt data) into its report,
/// instead of letting them reach the terminal. Warnings (probing advice) are dropped;
/// `REEL_FFMPEG_LOG=1` prints everything to stderr.
final class FFmpegLog {
    private(set) var lines: [String] = []
    private static let threadKey = "reel.ffmpegLog"
    private static let echo = ProcessInfo.processInfo.environment["REEL_FFMPEG_LOG"] != nil

    private static let installed: Bool = {
        reel_shim_av_log_install(ffmpegLogSink, echo ? AV_LOG_DEBUG : AV_LOG_WARNING)
        return true
    }()

    /// Runs `body` with FFmpeg's log lines from this thread going into `self`.
    func capture<T>(_ body: () throws -> T) rethrows -> T {
        _ = Self.installed
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[Self.threadKey]
        dictionary[Self.threadKey] = self
        defer { dictionary[Self.threadKey] = previous }
        return try body()
    }

    fileprivate static func receive(level: Int32, line: String) {
        if echo { FileHandle.standardError.write(Data(line.utf8)) }
        guard level <= AV_LOG_ERROR, let log = Thread.current.threadDictionary[threadKey] as? FFmpegLog else { return }
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty && log.lines.count < 100 { log.lines.append(text) }
    }
}

private let ffmpegLogSink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
    guard let line else { return }
    FFmpegLog.receive(level: level, line: String(cString: line))
}
