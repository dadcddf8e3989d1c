/// A value a reader may find missing (written by a version before the field existed): it then
/// reads as the type's empty value (`init()`), so older summaries and results still load.
@propertyWrapper
public struct Defaulted<Value: EmptyInitializable & Codable & Sendable & Equatable>: Sendable, Equatable, Codable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// A type with an empty value, `init()`: what a `Defaulted` field reads as when missing.
public protocol EmptyInitializable { init() }

extension Int: EmptyInitializable {}
extension Int64: EmptyInitializable {}
extension Double: EmptyInitializable {}

extension KeyedDecodingContainer {
    /// A `Defaulted` field that is missing reads as its empty value; one present but wrong is
    /// still an error naming it.
    public func decode<Value>(_ type: Defaulted<Value>.Type, forKey key: Key) throws -> Defaulted<Value> {
        try decodeIfPresent(type, forKey: key) ?? Defaulted(wrappedValue: Value())
    }
}

extension Defaulted: Hashable where Value: Hashable {}
