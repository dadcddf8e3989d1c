import Foundation
import OrderedCollections
import ReelCore

extension SessionEvent {
    /// Reads an event from its JSON object; a missing field or one of the wrong kind is an
    /// `invalidInput` error saying which.
    public init(json: JSONValue) throws {
        func fail(_ reason: String) -> ReelError { ReelError(.invalidInput, reason) }
        guard case .object(let fields) = json else { throw fail("expected a JSON object, found \(json.kindDescription)") }
        func field(_ name: String) throws -> JSONValue {
            guard let value = fields[name] else { throw fail("missing \"\(name)\"") }
            return value
        }
        func string(_ name: String) throws -> String {
            let value = try field(name)
            guard let text = value.string else { throw fail("\"\(name)\" must be a string, found \(value.kindDescription)") }
            return text
        }
        func optionalString(_ name: String) throws -> String? {
            guard let value = fields[name], value != .null else { return nil }
            guard let text = value.string else { throw fail("\"\(name)\" must be a string or null, found \(value.kindDescription)") }
            return text
        }
        func number(_ name: String) throws -> Double {
            let value = try field(name)
            guard let number = value.number, number.isFinite else { throw fail("\"\(name)\" must be a finite number, found \(value.kindDescription)") }
            return number
        }
        /// A byte count: a whole number from 0 to Int64.max (no trapping conversion).
        func bytes(_ name: String) throws -> Int64 {
            let value = try number(name)
            guard value >= 0, value < 9.2e18, value == value.rounded() else {
                throw fail("\"\(name)\" must be a whole number of bytes, found \(JSONWriter.number(value))")
            }
            return Int64(value)
        }
        func bool(_ name: String) throws -> Bool {
            guard case .bool(let value) = try field(name) else { throw fail("\"\(name)\" must be a boolean") }
            return value
        }
        func state(_ name: String) throws -> VisibilityState {
            let text = try string(name)
            guard let state = VisibilityState(rawValue: text) else { throw fail("\"\(name)\" is not a visibility state: \"\(text)\"") }
            return state
        }
        let time = try number("t")
        let type = try string("type")
        let kind: Kind
        switch type {
        case "visibility": kind = .visibility(card: try string("card"), from: try state("from"), to: try state("to"))
        case "prefetchQueued":
            kind = .prefetchQueued(url: try string("url"), card: try optionalString("card"), category: try string("category"))
        case "prefetchStarted": kind = .prefetchStarted(url: try string("url"))
        case "prefetchDone": kind = .prefetchDone(url: try string("url"), bytes: try bytes("bytes"))
        case "prefetchCancelled": kind = .prefetchCancelled(url: try string("url"), bytes: try bytes("bytes"))
        case "fetch":
            let originName = try string("origin")
            guard let origin = Origin(rawValue: originName) else { throw fail("\"origin\" is not one of prefetch, playback, thumbnail: \"\(originName)\"") }
            kind = .fetch(url: try string("url"), bytes: try bytes("bytes"), cacheHit: try bool("cacheHit"),
                          origin: origin, card: try optionalString("card"))
        case "mount": kind = .mount(card: try string("card"))
        case "unmount": kind = .unmount(card: try string("card"))
        case "playStart":
            let typeName = try string("widgetType")
            guard let widgetType = WidgetType(rawValue: typeName) else { throw fail("\"widgetType\" is not a widget type: \"\(typeName)\"") }
            kind = .playStart(card: try string("card"), widget: try string("widget"), widgetType: widgetType,
                              userIntent: try bool("userIntent"))
        case "playStop":
            // `detail` is the precise reason; files written by hand may give only `reason`.
            let detail = try optionalString("detail") ?? string("reason")
            guard let reason = PlayStopReason(rawValue: detail) ?? (detail == "revoked" ? .yielded : nil) else {
                throw fail("\"reason\" is not a stop reason: \"\(detail)\"")
            }
            kind = .playStop(card: try string("card"), reason: reason)
        case "firstFrame":
            var phases: OrderedDictionary<String, Double> = [:]
            for (name, value) in (fields["phases"]?.object ?? [:]) { phases[name] = value.number ?? 0 }
            kind = .firstFrame(card: try string("card"), ttffMs: try number("ttffMs"), phases: phases)
        case "stall": kind = .stall(card: try string("card"), ms: try number("ms"))
        case "error": kind = .error(card: try optionalString("card"), message: try string("message"))
        default: throw fail("unknown event type \"\(type)\"")
        }
        self.init(time: time, kind: kind)
    }

    /// Reads an events file (JSON lines); errors name the file and the line.
    public static func load(path: String) throws -> [SessionEvent] {
        let bytes = try FileBytes.read(path, what: "events file", code: .notFound)
        var events: [SessionEvent] = []
        var number = 0
        for line in String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            do {
                events.append(try SessionEvent(json: try JSONParser.parse(String(line))))
            } catch let error as JSONParser.SyntaxError {
                throw ReelError(.invalidInput, "events file '\(path)' line \(number): not valid JSON (\(error.reason))")
            } catch let error as ReelError {
                throw ReelError(.invalidInput, "events file '\(path)' line \(number): \(error.message)")
            }
        }
        return events
    }

    /// The play facts in a session's events, for `PlayRulesChecker`.
    public var playFact: PlayFact? {
        switch kind {
        case .mount(let card): PlayFact(time: time, card: card, kind: .mount)
        case .unmount(let card): PlayFact(time: time, card: card, kind: .unmount)
        case .playStart(let card, let widget, let widgetType, let userIntent):
            PlayFact(time: time, card: card, kind: .playStart(widget: widget, type: widgetType, userIntent: userIntent))
        case .playStop(let card, let reason): PlayFact(time: time, card: card, kind: .playStop(reason: reason))
        default: nil
        }
    }
}
