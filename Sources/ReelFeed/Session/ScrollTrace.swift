import Foundation
import OrderedCollections
import ReelCore

/// A scroll session as JSON lines: `{"t": seconds, "y": offset}`, optionally
/// `"x": {"<widget id>": offset}` and `"tap": "<card id>"`. Blank lines are skipped. Time going
/// backwards, NaN or infinite numbers, negative times or offsets and malformed lines are
/// `invalidTrace` errors naming the line.
public struct ScrollTrace: Sendable, Equatable {
    public var samples: [ScrollSample]

    public init(samples: [ScrollSample]) {
        self.samples = samples
    }

    /// The first `seconds` of the trace. When it goes on past them, a last sample at `seconds`
    /// itself holds the position it had then, so a session of the cut trace lasts `seconds`.
    public func cut(after seconds: Double) -> ScrollTrace {
        var kept = samples.filter { $0.time <= seconds }
        if kept.count < samples.count, let last = kept.last, last.time < seconds {
            kept.append(ScrollSample(time: seconds, y: last.y))
        }
        return ScrollTrace(samples: kept)
    }

    public static func load(path: String) throws -> ScrollTrace {
        let bytes = try FileBytes.read(path, what: "scroll trace", code: .notFound)
        return try parse(String(decoding: bytes, as: UTF8.self), source: "scroll trace '\(path)'")
    }

    public static func parse(_ text: String, source: String = "scroll trace") throws -> ScrollTrace {
        var samples: [ScrollSample] = []
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            func fail(_ reason: String) -> ReelError {
                ReelError(.invalidTrace, "\(source) line \(lineNumber): \(reason)")
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(trimmed, allowNonFinite: true)
            } catch {
                throw fail("not valid JSON (\(error.reason))")
            }
            guard case .object(let fields) = value else { throw fail("expected a JSON object, found \(value.kindDescription)") }
            func number(_ name: String, _ field: JSONValue?) throws -> Double {
                guard let field else { throw fail("missing \"\(name)\"") }
                guard let number = field.number else { throw fail("\"\(name)\" must be a number, found \(field.kindDescription)") }
                guard !number.isNaN else { throw fail("\"\(name)\" is NaN") }
                guard number.isFinite else { throw fail("\"\(name)\" is infinite") }
                guard number >= 0 else { throw fail("\"\(name)\" is negative (\(JSONWriter.number(number)))") }
                return number
            }
            let time = try number("t", fields["t"])
            let y = try number("y", fields["y"])
            if let previous = samples.last, time < previous.time {
                throw fail("time goes backwards (\(JSONWriter.number(time)) after \(JSONWriter.number(previous.time)))")
            }
            var x: [String: Double] = [:]
            if let field = fields["x"] {
                guard case .object(let offsets) = field else { throw fail("\"x\" must be an object of widget id -> offset") }
                for (id, offset) in offsets {
                    x[id] = try number("x.\(id)", offset)
                }
            }
            var tap: String?
            if let field = fields["tap"] {
                guard let id = field.string else { throw fail("\"tap\" must be a card id string") }
                tap = id
            }
            samples.append(ScrollSample(time: time, y: y, x: x, tap: tap, line: lineNumber))
        }
        return ScrollTrace(samples: samples)
    }
}
