import ArgumentParser
import Foundation
import ReelCore
import ReelServer

/// Printing helpers shared by every command: JSON for scripts, one-line errors for people.
enum CLIOutput {
    /// Encodes `value` as JSON (keys in the type's order; pretty unless `compact`; non-finite
    /// numbers as null), with `reelVersion` first.
    static func json<T: Encodable>(_ value: T, compact: Bool = false) throws -> String {
        jsonText(try JSONValue(encoding: value), compact: compact)
    }

    /// `value` as JSON text with `reelVersion` first (when it is an object): what every `--json`
    /// prints.
    static func jsonText(_ value: JSONValue, compact: Bool = false) -> String {
        let versioned = ReportJSON.versioned(value)
        return compact ? JSONWriter.compact(versioned) : JSONWriter.pretty(versioned)
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes a line to standard error (used for summaries when stdout carries data).
    static func printToStandardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Runs a command body, turning a `ReelError` into one line on stderr and a non-zero exit.
    static func run<T>(_ command: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ReelError {
            printError("reel \(command): \(error.description)")
            throw ExitCode(ExitStatus.of(error))
        } catch let error as CDNServerError {
            // The simulator's setup failures are bad input; failing to read a file or write the bill is not.
            printError("reel \(command): \(error.description)")
            throw ExitCode(error.code == .readFailed || error.code == .statsWriteFailed ? ExitStatus.checkFailed : ExitStatus.badInput)
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
