import ArgumentParser
import Foundation
import Logging
import ReelCore

/// `-v`/`--verbose` and `--log-level`, for every command: how much of the libraries' log reaches
/// stderr. Warnings by default (as one `warning: ...` line each); `-v` adds info (FFmpeg's errors,
/// retries), `-vv` or `--log-level debug` every transfer and FFmpeg's own messages.
struct LoggingOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "More detail on stderr: -v for info, -vv for debug (every transfer, FFmpeg's messages).")
    var verbose: Int

    @Option(name: .customLong("log-level"), help: ArgumentHelp(
        "Least important messages to print on stderr: trace, debug, info, notice, warning (default), error or critical.",
        valueName: "level"))
    var logLevel: Logger.Level?

    /// The level asked for: `--log-level` wins over `-v`.
    var level: Logger.Level {
        if let logLevel { return logLevel }
        switch verbose {
        case 0: return .warning
        case 1: return .info
        default: return .debug
        }
    }

    /// Sends every `reel.*` logger to stderr at `level`. Once per process (swift-log's rule).
    func bootstrap() {
        LoggingBootstrap.once(level)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// swift-log may be bootstrapped once per process.
private enum LoggingBootstrap {
    static let done = Locked(false)

    static func once(_ level: Logger.Level) {
        let first = done.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, logLevel: level) }
    }
}

/// One line per message on stderr: `warning: <message>` at warning and above (what the tool has
/// always printed), `<level> [<label>] <message> <metadata>` below it.
struct StderrLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, logLevel: Logger.Level) {
        self.label = label
        self.logLevel = logLevel
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line: String
        if event.level >= .warning {
            line = "\(event.level == .warning ? "warning" : "error"): \(event.message)"
        } else {
            line = "\(event.level) [\(label)] \(event.message)"
            let fields = metadata.merging(event.metadata ?? [:]) { $1 }
            if !fields.isEmpty {
                line += " " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
