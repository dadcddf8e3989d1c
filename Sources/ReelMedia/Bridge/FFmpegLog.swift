import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import Foundation
import Logging
import ReelCore

/// FFmpeg's log: every line goes to the `reel.ffmpeg` logger (errors at `info`, warnings and
/// FFmpeg's info and verbose lines at `debug`, its debug lines at `trace`), and a playback collects the errors FFmpeg prints while
/// it works on the playback's thread (a segment that failed to load, corrupt data) into its
/// report. FFmpeg formats only the lines the logger's level lets through (and always errors).
final class FFmpegLog {
    private(set) var lines: [String] = []
    private static let threadKey = "reel.ffmpegLog"
    private static let logger = ReelLog.ffmpeg

    private static let installed: Bool = {
        let threshold = switch logger.logLevel {
        case .trace: AV_LOG_DEBUG
        case .debug: AV_LOG_VERBOSE
        default: AV_LOG_ERROR
        }
        reel_shim_av_log_install(ffmpegLogSink, threshold)
        return true
    }()

    /// Sends FFmpeg's log to `reel.ffmpeg` from now on (once per process), for FFmpeg work outside
    /// a playback (encoding a movie, decoding an image) that would otherwise print to stderr.
    static func install() {
        _ = installed
    }

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
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        logger.log(level: level <= AV_LOG_ERROR ? .info : level <= AV_LOG_VERBOSE ? .debug : .trace, "\(text)")
        guard level <= AV_LOG_ERROR, let log = Thread.current.threadDictionary[threadKey] as? FFmpegLog else { return }
        if log.lines.count < 100 { log.lines.append(text) }
    }
}

private let ffmpegLogSink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
    guard let line else { return }
    FFmpegLog.receive(level: level, line: String(cString: line))
}
