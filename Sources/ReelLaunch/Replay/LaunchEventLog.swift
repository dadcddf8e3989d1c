import Foundation
import OrderedCollections
import ReelCore
import ReelManifest
import ReelNet
import ReelSplash

/// Lifecycle events as JSON lines, `{"t": "2026-11-27T08:00:00Z", "event": "launch"}` (`event`:
/// launch, foreground, background or crash; `t` an ISO 8601 date, UTC unless it says otherwise),
/// in time order: what `reel launch simulate` replays. Blank lines are skipped.
public enum LaunchEventLog {
    /// Events read at most.
    public static let maxEvents = 1_000_000

    /// Reads the file at `path`.
    public static func load(path: String) throws -> [LaunchEvent] {
        let bytes = try FileBytes.read(path, what: "events file", code: .notFound)
        return try parse(bytes, source: "events file '\(path)'")
    }

    /// The events of `bytes`; a line that is not such an event, or time going backwards, is an
    /// `.invalidTrace` error naming `source` and the line.
    public static func parse(_ bytes: [UInt8], source: String = "events") throws -> [LaunchEvent] {
        var events: [LaunchEvent] = []
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            func fail(_ reason: String) -> ReelError {
                ReelError(.invalidTrace, "\(source) line \(lineNumber): \(reason)")
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(text)
            } catch {
                throw fail("not valid JSON (\(error.reason))")
            }
            guard case .object(let fields) = value else { throw fail("expected a JSON object, found \(value.kindDescription)") }
            guard let timeText = fields["t"]?.string else { throw fail("missing \"t\" (an ISO 8601 date such as \"2026-11-27T08:00:00Z\")") }
            guard let time = ISO8601Date.parse(timeText) else { throw fail("\"t\" '\(timeText)' is not an ISO 8601 date") }
            guard let kindText = fields["event"]?.string else { throw fail("missing \"event\"") }
            guard let kind = LaunchEvent.Kind(rawValue: kindText) else {
                throw fail("event '\(kindText)' is not one of \(LaunchEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if let last = events.last, time < last.time {
                throw fail("time goes backwards (\(timeText) is before the line above)")
            }
            guard events.count < maxEvents else { throw fail("more than \(maxEvents) events") }
            events.append(LaunchEvent(time: time, kind: kind))
        }
        guard !events.isEmpty else { throw ReelError(.invalidTrace, "\(source) holds no events") }
        return events
    }
}
