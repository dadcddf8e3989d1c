import OrderedCollections

/// Encodes any `Encodable` as a `JSONValue`, keys in the order the type encodes them (its
/// declaration order when synthesized), so `JSONWriter` prints it stably and readably. Every
/// optional is written, `null` when absent (scripts see every key, always), and a number that is
/// not finite (an empty measurement) is `null` too. Reel's one way from a report type to JSON.
public enum JSONValueEncoder {
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = Node()
        try value.encode(to: ValueEncoder(node: root, codingPath: []))
        return root.value
    }

    /// A slot being filled: one value, or an object or array filled key by key.
    fileprivate final class Node {
        enum Content {
            case value(JSONValue)
            case object(OrderedDictionary<String, Node>)
            case array([Node])
        }
        var content = Content.value(.null)

        var value: JSONValue {
            switch content {
            case .value(let value): value
            case .object(let members): .object(members.mapValues(\.value))
            case .array(let elements): .array(elements.map(\.value))
            }
        }

        /// The members, turning this node into an object (keeping members already there).
        func member(_ key: String) -> Node {
            var members: OrderedDictionary<String, Node> = [:]
            if case .object(let existing) = content { members = existing }
            if let node = members[key] { return node }
            // Let go of the stored copy first, so the insertion is in place (not a copy per member).
            content = .value(.null)
            let node = Node()
            members[key] = node
            content = .object(members)
            return node
        }

        func makeObject() {
            if case .object = content { return }
            content = .object([:])
        }

        func append() -> Node {
            var elements: [Node] = []
            if case .array(let existing) = content { elements = existing }
            // Let go of the stored copy first, so the append is in place (not a copy per element).
            content = .value(.null)
            let node = Node()
            elements.append(node)
            content = .array(elements)
            return node
        }

        func makeArray() {
            if case .array = content { return }
            content = .array([])
        }
    }

    fileprivate static func number(_ value: Double) -> JSONValue {
        value.isFinite ? .double(value) : .null
    }

    fileprivate struct ValueEncoder: Encoder, SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.makeObject()
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.makeArray()
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        mutating func encodeNil() throws { node.content = .value(.null) }
        mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { node.content = .value(JSONValueEncoder.number(value)) }
        mutating func encode(_ value: Float) throws { node.content = .value(JSONValueEncoder.number(Double(value))) }
        mutating func encode(_ value: Int) throws { node.content = .value(.int(value)) }
        mutating func encode(_ value: Int8) throws { node.content = .value(.int(Int(value))) }
        mutating func encode(_ value: Int16) throws { node.content = .value(.int(Int(value))) }
        mutating func encode(_ value: Int32) throws { node.content = .value(.int(Int(value))) }
        mutating func encode(_ value: Int64) throws { node.content = .value(.int(Int(value))) }
        mutating func encode(_ value: UInt) throws { node.content = .value(Self.unsigned(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { node.content = .value(.int(Int(value))) }
        mutating func encode(_ value: UInt16) throws { node.content = .value(.int(Int(value))) }
        mutating func encode(_ value: UInt32) throws { node.content = .value(.int(Int(value))) }
        mutating func encode(_ value: UInt64) throws { node.content = .value(Self.unsigned(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try value.encode(to: ValueEncoder(node: node, codingPath: codingPath))
        }

        static func unsigned(_ value: UInt64) -> JSONValue {
            value <= UInt64(Int.max) ? .int(Int(value)) : .double(Double(value))
        }
    }

    fileprivate struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func encoder(_ key: Key) -> ValueEncoder {
            ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
        }

        mutating func encodeNil(forKey key: Key) throws {
            var single = encoder(key)
            try single.encodeNil()
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            var single = encoder(key)
            try single.encode(value)
        }
        // Optionals are written as null, not left out.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }

        private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                             forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            encoder(key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder(key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { ValueEncoder(node: node, codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(key) }
    }

    fileprivate struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int {
            if case .array(let elements) = node.content { return elements.count }
            return 0
        }

        private func next() -> ValueEncoder {
            ValueEncoder(node: node.append(), codingPath: codingPath)
        }

        mutating func encodeNil() throws { var single = next(); try single.encodeNil() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            var single = next()
            try single.encode(value)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            next().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { next() }
    }
}
