import ArgumentParser
import Foundation
import ReelCore
import ReelServer

/// Printing helpers shared by every command: JSON for scripts, one-line errors for people.
enum CLIOutput {
    /// Encodes `value` as JSON (sorted keys; pretty unless `compact`; non-finite numbers as null).
    static func json<T: Encodable>(_ value: T, compact: Bool = false) throws -> String {
        try ReportJSON.string(value, compact: compact)
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes a line to standard error (used for summaries when stdout carries data).
    static func printToStandardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The exit code for a failure, by area: 2 bad input or configuration, 3 network, 4 parsing,
    /// 5 decoding, 6 cache, 130 cancelled, 1 anything else.
    static func exitCode(for error: ReelError) -> Int32 {
        error.exitStatus
    }

    /// Runs a command body, turning a `ReelError` into one line on stderr and a non-zero exit.
    static func run<T>(_ command: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ReelError {
            printError("reel \(command): \(error.description)")
            throw ExitCode(exitCode(for: error))
        } catch let error as CDNServerError {
            // The simulator's setup failures are bad input; failing to read a file or write the bill is not.
            printError("reel \(command): \(error.description)")
            throw ExitCode(error.code == .readFailed || error.code == .statsWriteFailed ? 1 : 2)
        }
    }
}

/// Formats numbers for people.
enum Human {
    static func ms(_ value: Double) -> String { String(format: value < 10 ? "%.2f ms" : "%.1f ms", value) }

    /// A figure that may be missing (no samples): "-" then.
    static func ms(_ value: Double?) -> String { value.map { ms($0) } ?? "-" }

    static func bytes(_ value: Int64) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var amount = Double(value)
        var unit = 0
        while amount >= 1000 && unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        return unit == 0 ? "\(value) B" : String(format: "%.1f %@", amount, units[unit])
    }
}
