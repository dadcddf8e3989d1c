import Foundation
import ReelCore

/// One line of progress rewritten in place on standard error, as ffmpeg's is: only when standard
/// error is a terminal and the command does not print JSON, at most four redraws a second, and
/// cleared before the command prints its summary.
final class LiveLine: Sendable {
    let enabled: Bool
    private let lastDrawn = Locked<ContinuousClock.Instant?>(nil)
    private let drawn = Locked(false)

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// On when standard error is a terminal and `json` is off.
    static func onTerminal(json: Bool) -> LiveLine {
        LiveLine(enabled: !json && isatty(STDERR_FILENO) != 0)
    }

    /// Draws `text` in place of the line (skipped when the last draw is under 250 ms old, unless `force`).
    func show(_ text: @autoclosure () -> String, force: Bool = false) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let due = lastDrawn.withLock { last -> Bool in
            guard force || last.map({ now - $0 >= .milliseconds(250) }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        drawn.withLock { $0 = true }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text())".utf8))
    }

    /// Clears the line, so what follows starts at the left.
    func finish() {
        guard enabled, drawn.withLock({ $0 }) else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
