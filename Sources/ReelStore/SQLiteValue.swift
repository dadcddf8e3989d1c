import ReelCore

/// One value as SQLite holds it (its five storage classes). Stored state (the cache index, the
/// launch state) is read as these values, never through typed conversions that trap on a wrong
/// type, and decoded by pure functions a fuzzer drives without a database.
public enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// The value for a message: its type and a short, printable form of it.
    public var summary: String {
        switch self {
        case .integer(let value): "integer \(value)"
        case .real(let value): "real \(value)"
        case .text(let text): "text '\(Self.printable(text))'"
        case .blob(let bytes): "a blob of \(bytes.count) bytes"
        case .null: "null"
        }
    }

    /// The text, when the value is text.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// `text` cut to 40 characters with control characters escaped, so a hostile value cannot
    /// break a warning line.
    public static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(40) {
            result += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return text.unicodeScalars.count > 40 ? result + "..." : result
    }
}
