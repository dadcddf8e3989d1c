import Logging
import ReelCore

/// A logger whose messages at or above `level` a test can read back: what a component said
/// (the cache's warnings, say) without a process-wide logging bootstrap.
package final class LogRecorder: Sendable {
    private let recorded = Watched<[String]>([])
    package let level: Logger.Level

    package init(level: Logger.Level = .warning) {
        self.level = level
    }

    /// The messages so far, in order.
    package var lines: [String] { recorded.current }

    /// A logger writing here.
    package func logger(label: String = "reel.test") -> Logger {
        let recorded = recorded, level = level
        return Logger(label: label) { _ in Handler(recorded: recorded, logLevel: level) }
    }

    struct Handler: LogHandler {
        let recorded: Watched<[String]>
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorded.update { $0.append(event.message.description) }
        }
    }
}
