import OrderedCollections

/// Decodes any `Decodable` from a `JSONValue` (as `JSONParser` reads it), with errors that name
/// the field by its path and say what was found: `"ttffMs.p50" must be a number, found a
/// string`. A missing optional and an explicit `null` both decode as nil; numbers must be finite
/// and integers whole and in range (never a trapping conversion).
public enum JSONValueDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        do {
            return try T(from: ValueDecoder(value: value, codingPath: []))
        } catch let error as Failure {
            throw ReelError(.invalidInput, error.message)
        } catch let error as DecodingError {
            // A type's own check (an enum's unknown raw value, say): its path and its words.
            switch error {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                 .keyNotFound(_, let context):
                let name = pathText(context.codingPath)
                throw ReelError(.invalidInput, name.isEmpty ? context.debugDescription : "\"\(name)\": \(context.debugDescription)")
            @unknown default:
                throw ReelError(.invalidInput, "\(error)")
            }
        }
    }

    /// A decoding failure with its message, before it becomes a `ReelError`.
    struct Failure: Error {
        let message: String
    }

    /// `a.b[2].c` for a coding path.
    static func pathText(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    static func mismatch(_ path: [any CodingKey], _ wanted: String, _ found: JSONValue) -> Failure {
        let name = pathText(path)
        return Failure(message: name.isEmpty ? "expected \(wanted), found \(found.kindDescription)"
                                             : "\"\(name)\" must be \(wanted), found \(found.kindDescription)")
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    struct ValueDecoder: Decoder, SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
            guard case .object(let members) = value else { throw mismatch(codingPath, "an object", value) }
            return KeyedDecodingContainer(KeyedContainer<K>(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw mismatch(codingPath, "an array", value) }
            return UnkeyedContainer(elements: elements, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { value == .null }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let flag) = value else { throw mismatch(codingPath, "true or false", value) }
            return flag
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let text) = value else { throw mismatch(codingPath, "a string", value) }
            return text
        }

        func decode(_ type: Double.Type) throws -> Double {
            guard let number = value.number, number.isFinite else { throw mismatch(codingPath, "a number", value) }
            return number
        }

        func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
        func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try T(from: self)
        }

        /// A whole number that fits `T`.
        private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            switch value {
            case .int(let number):
                guard let exact = T(exactly: number) else { throw mismatch(codingPath, "a whole number in range", value) }
                return exact
            case .double(let number):
                guard number.isFinite, number == number.rounded(), let exact = T(exactly: number) else {
                    throw mismatch(codingPath, "a whole number in range", value)
                }
                return exact
            default:
                throw mismatch(codingPath, "a whole number", value)
            }
        }
    }

    struct KeyedContainer<K: CodingKey>: KeyedDecodingContainerProtocol {
        let members: OrderedDictionary<String, JSONValue>
        let codingPath: [any CodingKey]

        var allKeys: [K] { members.keys.compactMap { K(stringValue: $0) } }
        func contains(_ key: K) -> Bool { members[key.stringValue] != nil }

        private func decoder(_ key: K) throws -> ValueDecoder {
            guard let value = members[key.stringValue] else {
                let name = pathText(codingPath + [key])
                throw Failure(message: "missing \"\(name)\"")
            }
            return ValueDecoder(value: value, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: K) throws -> Bool { members[key.stringValue].map { $0 == .null } ?? true }

        func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T {
            try decoder(key).decode(type)
        }

        // A missing key and null both read as nil.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T? {
            guard let value = members[key.stringValue], value != .null else { return nil }
            return try ValueDecoder(value: value, codingPath: codingPath + [key]).decode(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: K) throws
            -> KeyedDecodingContainer<NestedKey> {
            try decoder(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: K) throws -> any UnkeyedDecodingContainer {
            try decoder(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(members), codingPath: codingPath) }
        func superDecoder(forKey key: K) throws -> any Decoder { try decoder(key) }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next() throws -> ValueDecoder {
            guard !isAtEnd else {
                throw Failure(message: "\"\(pathText(codingPath))\" has too few elements (\(elements.count))")
            }
            defer { currentIndex += 1 }
            return ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [Key(intValue: currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }
}

extension JSONValue {
    /// `value` encoded by `JSONValueEncoder`.
    public init<T: Encodable>(encoding value: T) throws {
        self = try JSONValueEncoder.encode(value)
    }

    /// This value decoded as `T` by `JSONValueDecoder`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder.decode(type, from: self)
    }
}
