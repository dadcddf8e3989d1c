/// One value as SQLite stores it, by storage class: what the launch state's rows are decoded
/// from, whatever the column's declared type (SQLite keeps text in an INTEGER column as text).
public enum SQLiteValue: Sendable, Hashable {
    case null
    case int(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as a message names it: "text 'many'", "real 1e+300", "a blob of 8 bytes".
    var described: String {
        switch self {
        case .null: "null"
        case .int(let value): "integer \(value)"
        case .real(let value): "real \(value)"
        case .text(let value): "text '\(LaunchText.escaped(String(value.prefix(40))))\(value.count > 40 ? "..." : "")'"
        case .blob(let bytes): "a blob of \(bytes.count) bytes"
        }
    }
}
