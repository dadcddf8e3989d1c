import Foundation
import ReelCore

/// One exit status per kind of outcome, the same in every command: what a script can branch on.
/// `table` is what `reel --help`, the man page and the README print.
enum ExitStatus {
    static let success: Int32 = 0
    /// A check ran and found problems (`config check` warnings, `feed check-events` violations,
    /// `stress` invariants), or a failure with no kind of its own.
    static let checkFailed: Int32 = 1
    /// Bad input: the command line (an unknown command or option, a bad value), a configuration
    /// key or file, an input file or URL, a catalog or trace.
    static let badInput: Int32 = 2
    static let network: Int32 = 3
    /// A playlist or manifest that cannot be read.
    static let parsing: Int32 = 4
    static let decoding: Int32 = 5
    static let cache: Int32 = 6
    /// Stopped by Ctrl-C (SIGINT) or SIGTERM: 128 plus the signal, as shells report it. What ran
    /// was printed and written first.
    static let interrupted: Int32 = 130
    static let terminated: Int32 = 143

    /// The status for a failure, by its area.
    static func of(_ error: ReelError) -> Int32 {
        switch error.code.area {
        case .input, .config: badInput
        case .network: network
        case .parsing: parsing
        case .decoding: decoding
        case .cache: cache
        case .lifecycle: error.code == .cancelled ? interrupted : checkFailed
        }
    }

    /// The table, one row per status.
    static let rows: [(Int32, String)] = [
        (success, "success"),
        (checkFailed, "a check found problems (config check warnings, feed check-events violations, stress invariants), or an unexpected failure"),
        (badInput, "bad input: an unknown command or option, a bad option value, an unknown configuration key or a bad configuration file, an input file or URL that cannot be used"),
        (network, "network: a server that cannot be reached, an HTTP error, a timeout; offline with nothing usable cached"),
        (parsing, "a playlist or manifest that cannot be read"),
        (decoding, "decoding: no video stream, a decoder missing or failing"),
        (cache, "the disk cache: a folder that cannot be used, damaged entries"),
        (interrupted, "interrupted by Ctrl-C (SIGINT): the summary of what ran is printed and the files written first"),
        (terminated, "terminated by SIGTERM, the same way"),
    ]

    /// The table as text for `--help` and the man page: a paragraph per row, since the man page
    /// joins the lines of a paragraph.
    static var text: String {
        rows.map { code, meaning in "\(String(code).padding(toLength: 5, withPad: " ", startingAt: 0))\(meaning)" }.joined(separator: "\n\n")
    }
}
