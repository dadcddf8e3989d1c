import Foundation
import ReelCore
import ReelFeed

/// The events file: one JSON object per line, `{"t", "type", ...the kind's fields}`.
extension SessionEvent: Codable {
    private enum Keys: String, CodingKey { case t, type }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode((time * 1e6).rounded() / 1e6, forKey: .t)
        try container.encode(kind.name, forKey: .type)
        // The kind's fields go into the same object.
        switch kind {
        case .visibility(let fields): try fields.encode(to: encoder)
        case .prefetchQueued(let fields): try fields.encode(to: encoder)
        case .prefetchStarted(let fields): try fields.encode(to: encoder)
        case .prefetchDone(let fields), .prefetchCancelled(let fields): try fields.encode(to: encoder)
        case .fetch(let fields): try fields.encode(to: encoder)
        case .mount(let fields), .unmount(let fields): try fields.encode(to: encoder)
        case .playStart(let fields): try fields.encode(to: encoder)
        case .playStop(let fields): try fields.encode(to: encoder)
        case .firstFrame(let fields): try fields.encode(to: encoder)
        case .stall(let fields): try fields.encode(to: encoder)
        case .variantSwitch(let fields): try fields.encode(to: encoder)
        case .error(let fields): try fields.encode(to: encoder)
        case .preload(let fields): try fields.encode(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let time = try container.decode(Double.self, forKey: .t)
        let type = try container.decode(String.self, forKey: .type)
        let kind: Kind
        switch type {
        case "visibility": kind = .visibility(try Visibility(from: decoder))
        case "prefetchQueued": kind = .prefetchQueued(try PrefetchQueued(from: decoder))
        case "prefetchStarted": kind = .prefetchStarted(try PrefetchStarted(from: decoder))
        case "prefetchDone": kind = .prefetchDone(try PrefetchEnd(from: decoder))
        case "prefetchCancelled": kind = .prefetchCancelled(try PrefetchEnd(from: decoder))
        case "fetch": kind = .fetch(try Fetch(from: decoder))
        case "mount": kind = .mount(try CardOnly(from: decoder))
        case "unmount": kind = .unmount(try CardOnly(from: decoder))
        case "playStart": kind = .playStart(try PlayStart(from: decoder))
        case "playStop": kind = .playStop(try PlayStop(from: decoder))
        case "firstFrame": kind = .firstFrame(try FirstFrame(from: decoder))
        case "stall": kind = .stall(try Stall(from: decoder))
        case "variantSwitch": kind = .variantSwitch(try VariantSwitch(from: decoder))
        case "error": kind = .error(try Failure(from: decoder))
        case "preload": kind = .preload(try Preload(from: decoder))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown event type \"\(type)\""))
        }
        self.init(time: time, kind: kind)
    }

    /// The event as one JSON object.
    public var json: JSONValue {
        // Encoding strings, numbers and enums into a JSONValue cannot fail.
        (try? JSONValue(encoding: self)) ?? .null
    }

    /// Reads an event from its JSON object; a missing field or one of the wrong kind is an
    /// `invalidInput` error saying which.
    public init(json: JSONValue) throws {
        self = try json.decode(SessionEvent.self)
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

    /// The events as JSON lines, the format `load` reads.
    public static func jsonLines(_ events: [SessionEvent]) -> String {
        var text = ""
        for event in events {
            text += JSONWriter.compact(event.json)
            text += "\n"
        }
        return text
    }

    /// Writes the events to `path` as JSON lines (replacing the file whole). Blocking file I/O:
    /// call it from a `BlockingPool` job.
    public static func write(_ events: [SessionEvent], to path: String) throws {
        do {
            try Data(jsonLines(events).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ReelError(.invalidInput, "cannot write the events to '\(path)': \(error.localizedDescription)")
        }
    }
}

extension SessionEvent.PlayStop: Codable {
    private enum Keys: String, CodingKey { case card, reason, detail }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(card, forKey: .card)
        try container.encode(reason, forKey: .reason)
        try container.encode(detail, forKey: .detail)
    }

    /// `detail` is the precise reason; files written by hand may give only `reason`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        card = try container.decode(CardID.self, forKey: .card)
        if let detail = try container.decodeIfPresent(PlayStopReason.self, forKey: .detail) {
            self.detail = detail
            return
        }
        let reason = try container.decode(String.self, forKey: .reason)
        guard let detail = PlayStopReason(rawValue: reason) ?? (reason == "revoked" ? .yielded : nil) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [Keys.reason], debugDescription: "not a stop reason: \"\(reason)\""))
        }
        self.detail = detail
    }
}

extension SessionEvent.Fetch {
    private enum Keys: String, CodingKey { case url, bytes, cacheBytes, cacheHit, origin, card, durationMs }

    /// Files written before `cacheBytes` existed: a whole hit came from the cache, a miss did not.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let bytes = try container.decode(NonNegative.self, forKey: .bytes).wrappedValue
        let cacheHit = try container.decode(Bool.self, forKey: .cacheHit)
        let cacheBytes = try container.decodeIfPresent(NonNegative.self, forKey: .cacheBytes)?.wrappedValue
        self.init(url: try container.decode(String.self, forKey: .url), bytes: bytes,
                  cacheBytes: cacheBytes ?? (cacheHit ? bytes : 0), cacheHit: cacheHit,
                  origin: try container.decode(SessionEvent.Origin.self, forKey: .origin),
                  card: try container.decodeIfPresent(CardID.self, forKey: .card),
                  durationMs: try container.decodeIfPresent(Double.self, forKey: .durationMs))
    }
}
