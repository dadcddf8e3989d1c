/// A count read from a file that must not be negative (bytes, say): decoding refuses a negative
/// or fractional number with the field's name instead of carrying it into sums.
@propertyWrapper
public struct NonNegative: Sendable, Hashable, Codable {
    public var wrappedValue: Int64

    public init(wrappedValue: Int64) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int64.self)
        guard value >= 0 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "must not be negative, found \(value)"))
        }
        wrappedValue = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
