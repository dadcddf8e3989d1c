import Foundation

/// A type a configuration key can hold: how it reads from JSON and from `--set` text, and how it
/// is written back. Implemented for `Bool`, `Int`, `Double`, `String` and `[String]`.
public protocol SettingValue: Codable, Sendable, Equatable {
    /// The type's name in `reel config defaults` ("int", "number", "bool", "string", "[string]").
    static var typeName: String { get }
    /// What a value must look like, for error messages ("an integer").
    static var expectation: String { get }
    /// The value from JSON, nil when the JSON has the wrong type.
    init?(json: JSONValue)
    /// The value from the text of `--set key=TEXT`, nil when it does not parse.
    init?(text: String)
    /// The value as JSON.
    var json: JSONValue { get }
}

extension Bool: SettingValue {
    public static var typeName: String { "bool" }
    public static var expectation: String { "true or false" }

    public init?(json: JSONValue) {
        guard case .bool(let value) = json else { return nil }
        self = value
    }

    public init?(text: String) {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default: return nil
        }
    }

    public var json: JSONValue { .bool(self) }
}

extension Int: SettingValue {
    public static var typeName: String { "int" }
    public static var expectation: String { "an integer" }

    public init?(json: JSONValue) {
        switch json {
        case .int(let value): self = value
        case .double(let value) where value.isFinite && value == value.rounded() && abs(value) < 9.0e15: self = Int(value)
        default: return nil
        }
    }

    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Int(trimmed) {
            self = value
        } else if let value = Double(trimmed), value.isFinite, value == value.rounded(), abs(value) < 9.0e15 {
            self = Int(value)
        } else {
            return nil
        }
    }

    public var json: JSONValue { .int(self) }
}

extension Double: SettingValue {
    public static var typeName: String { "number" }
    public static var expectation: String { "a number" }

    public init?(json: JSONValue) {
        guard let value = json.number, value.isFinite else { return nil }
        self = value
    }

    public init?(text: String) {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else { return nil }
        self = value
    }

    public var json: JSONValue { .double(self) }
}

extension String: SettingValue {
    public static var typeName: String { "string" }
    public static var expectation: String { "a string" }

    public init?(json: JSONValue) {
        guard case .string(let value) = json else { return nil }
        self = value
    }

    /// The text as is; a JSON-quoted string is unquoted.
    public init?(text: String) {
        if text.hasPrefix("\""), case .string(let value)? = try? JSONParser.parse(text) {
            self = value
        } else {
            self = text
        }
    }

    public var json: JSONValue { .string(self) }
}

extension Array: SettingValue where Element == String {
    public static var typeName: String { "[string]" }
    public static var expectation: String { "an array of strings" }

    public init?(json: JSONValue) {
        guard case .array(let elements) = json else { return nil }
        var strings: [String] = []
        for element in elements {
            guard case .string(let value) = element else { return nil }
            strings.append(value)
        }
        self = strings
    }

    /// A JSON array of strings, or a comma-separated list ("a,b,c"); empty text is an empty list.
    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[") {
            guard let json = try? JSONParser.parse(trimmed), let value = Self(json: json) else { return nil }
            self = value
        } else if trimmed.isEmpty {
            self = []
        } else {
            self = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    public var json: JSONValue { .array(map { .string($0) }) }
}
