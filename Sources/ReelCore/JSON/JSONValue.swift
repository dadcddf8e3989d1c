import OrderedCollections

/// A parsed JSON value with object keys kept in file order, so configuration, catalog and trace
/// input can be checked field by field and output is written in a stable order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(OrderedDictionary<String, JSONValue>)

    /// A number that may be missing: null when it is.
    public static func optional(_ value: Double?) -> JSONValue {
        value.map(JSONValue.double) ?? .null
    }

    /// A string that may be missing: null when it is.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// The number as a `Double`, for `int` and `double` values.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var object: OrderedDictionary<String, JSONValue>? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// An object's keys in order; empty for other values.
    public var keys: [String] {
        object.map { Array($0.keys) } ?? []
    }

    /// The member `key` of an object, nil for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        object?[key]
    }

    /// A short name of the value's kind, for error messages ("a string", "an object").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
