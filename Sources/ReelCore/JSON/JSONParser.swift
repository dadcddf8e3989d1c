import OrderedCollections

/// A small strict JSON parser over UTF-8 bytes that keeps object key order, tells integers from
/// other numbers and reports errors with line and column. `allowNonFinite` accepts the tokens
/// `NaN`, `Infinity` and `-Infinity` so that a caller can reject them with a precise message.
/// `rejectingDuplicateKeys` refuses an object naming a key twice, where a reader that takes
/// every occurrence (rlottie appends a second `"layers"` or `"assets"`) would see what this one,
/// keeping the last, does not.
public struct JSONParser {
    /// A syntax error at a 1-based line and column.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var reason: String
        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    private let bytes: [UInt8]
    private var position = 0
    private let allowNonFinite: Bool
    private var rejectingDuplicateKeys = false
    private var depth = 0
    private static let maxDepth = 256

    /// Parses one JSON document; trailing content other than whitespace is an error.
    public static func parse(_ text: String, allowNonFinite: Bool = false) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), allowNonFinite: allowNonFinite)
        return try parser.parseDocument()
    }

    /// Parses one JSON document from raw bytes.
    public static func parse(bytes: [UInt8], allowNonFinite: Bool = false, rejectingDuplicateKeys: Bool = false) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, allowNonFinite: allowNonFinite)
        parser.rejectingDuplicateKeys = rejectingDuplicateKeys
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8], allowNonFinite: Bool) {
        self.bytes = bytes
        self.allowNonFinite = allowNonFinite
        // Skip a UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    private mutating func parseDocument() throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw error("empty document") }
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected content after the JSON value") }
        return value
    }

    private func error(_ reason: String) -> SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(position, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SyntaxError(line: line, column: column, reason: reason)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "N") where allowNonFinite: try expectLiteral("NaN"); return .double(.nan)
        case UInt8(ascii: "I") where allowNonFinite: try expectLiteral("Infinity"); return .double(.infinity)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[position])))'")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(SyntaxError) {
        for byte in literal.utf8 {
            guard position < bytes.count, bytes[position] == byte else { throw error("invalid literal, expected '\(literal)'") }
            position += 1
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var members: OrderedDictionary<String, JSONValue> = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            position += 1
            skipWhitespace()
            if rejectingDuplicateKeys && members[key] != nil { throw error("key \(JSONWriter.quoted(key)) appears twice in one object") }
            members[key] = try parseValue()
            skipWhitespace()
            guard position < bytes.count else { throw error("unterminated object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("unterminated array") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        position += 1
        var scalars: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            case 0x00..<0x20:
                throw error("control character in string")
            default:
                scalars.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") {
            position += 1
            if allowNonFinite, position < bytes.count, bytes[position] == UInt8(ascii: "I") {
                try expectLiteral("Infinity")
                return .double(-.infinity)
            }
        }
        var isInteger = true
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("leading zero in number") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected digits after '.'") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected digits in exponent") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw error("invalid number '\(text.prefix(40))'") }
        // Double reads 1e400 as infinity, which no JSON writer can write back.
        guard value.isFinite else { throw error("number '\(text.prefix(40))' is out of range") }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
