import Foundation

/// Encodes Reel's reports (CLI output, the CDN bill, manifest reports) as JSON for files and
/// scripts, through `JSONValueEncoder`: keys in the type's order, every optional written (`null`
/// when absent), a number that is not finite (an empty measurement) as `null`.
public enum ReportJSON {
    /// `value` as JSON, indented unless `compact`.
    public static func data<T: Encodable>(_ value: T, compact: Bool = false) throws -> Data {
        Data(try string(value, compact: compact).utf8)
    }

    /// `value` as JSON text, indented unless `compact`.
    public static func string<T: Encodable>(_ value: T, compact: Bool = false) throws -> String {
        let json = try JSONValue(encoding: value)
        return compact ? JSONWriter.compact(json) : JSONWriter.pretty(json)
    }
}
