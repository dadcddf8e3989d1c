import OrderedCollections
import ReelCore

/// One thing that happened to a card's player, as `PlayRulesChecker` reads it: a player mounted
/// or unmounted, a play started or stopped. One JSON object per fact:
///
///     {"t": 1.5, "fact": "mount", "card": "c3/1"}
///     {"t": 1.5, "fact": "playStart", "card": "c3/1", "widget": "c3", "type": "carousel", "user": false}
///     {"t": 6.5, "fact": "playStop", "card": "c3/1", "reason": "preview"}
///     {"t": 9.0, "fact": "unmount", "card": "c3/1"}
public struct PlayFact: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A player was attached to the card.
        case mount
        /// The card's player was detached.
        case unmount
        /// The card started playing; `userIntent` when a user's play started it.
        case playStart(widget: String, type: WidgetType, userIntent: Bool)
        case playStop(reason: PlayStopReason)

        /// The name used in JSON (`"fact"`).
        public var name: String {
            switch self {
            case .mount: "mount"
            case .unmount: "unmount"
            case .playStart: "playStart"
            case .playStop: "playStop"
            }
        }
    }

    /// Seconds on the session's clock.
    public var time: Double
    /// The card's id ("<widget id>/<slot>").
    public var card: String
    public var kind: Kind

    public init(time: Double, card: String, kind: Kind) {
        self.time = time
        self.card = card
        self.kind = kind
    }

    /// Reads a fact from its JSON object; anything missing or of the wrong kind is an
    /// `invalidInput` error saying which field.
    public init(json: JSONValue) throws {
        func fail(_ reason: String) -> ReelError {
            ReelError(.invalidInput, "play fact: \(reason)")
        }
        guard case .object(let fields) = json else { throw fail("expected a JSON object, found \(json.kindDescription)") }
        func string(_ name: String) throws -> String {
            guard let field = fields[name] else { throw fail("missing \"\(name)\"") }
            guard let value = field.string else { throw fail("\"\(name)\" must be a string, found \(field.kindDescription)") }
            return value
        }
        guard let timeField = fields["t"] else { throw fail("missing \"t\"") }
        guard let time = timeField.number, time.isFinite else { throw fail("\"t\" must be a finite number, found \(timeField.kindDescription)") }
        let card = try string("card")
        let name = try string("fact")
        let kind: Kind
        switch name {
        case "mount": kind = .mount
        case "unmount": kind = .unmount
        case "playStart":
            let typeName = try string("type")
            guard let type = WidgetType(rawValue: typeName) else {
                throw fail("\"type\" must be one of \(WidgetType.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(typeName)\"")
            }
            var userIntent = false
            if let field = fields["user"] {
                guard case .bool(let value) = field else { throw fail("\"user\" must be a boolean, found \(field.kindDescription)") }
                userIntent = value
            }
            kind = .playStart(widget: try string("widget"), type: type, userIntent: userIntent)
        case "playStop":
            let reasonName = try string("reason")
            guard let reason = PlayStopReason(rawValue: reasonName) else {
                throw fail("\"reason\" must be one of \(PlayStopReason.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(reasonName)\"")
            }
            kind = .playStop(reason: reason)
        default:
            throw fail("\"fact\" must be mount, unmount, playStart or playStop, found \"\(name)\"")
        }
        self.init(time: time, card: card, kind: kind)
    }

    /// The fact as one JSON object (the form `init(json:)` reads).
    public var json: JSONValue {
        var fields: OrderedDictionary<String, JSONValue> = ["t": .double(time), "fact": .string(kind.name), "card": .string(card)]
        switch kind {
        case .mount, .unmount:
            break
        case .playStart(let widget, let type, let userIntent):
            fields["widget"] = .string(widget)
            fields["type"] = .string(type.rawValue)
            fields["user"] = .bool(userIntent)
        case .playStop(let reason):
            fields["reason"] = .string(reason.rawValue)
        }
        return .object(fields)
    }
}
