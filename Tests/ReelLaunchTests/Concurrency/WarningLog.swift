import Logging
import ReelTestSupport

/// The warnings a launch controller or state logged.
final class WarningLog: Sendable {
    private let recorder = LogRecorder()

    var all: [String] { recorder.lines }

    /// A logger whose warnings land here.
    var logger: Logger { recorder.logger(label: "reel.launch") }
}
