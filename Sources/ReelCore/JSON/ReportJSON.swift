import Foundation
import OrderedCollections

/// Encodes Reel's reports (CLI output, the CDN bill, manifest reports) as JSON for files and
/// scripts, through `JSONValueEncoder`: keys in the type's order, every optional written (`null`
/// when absent), a number that is not finite (an empty measurement) as `null`.
public enum ReportJSON {
    /// `value` as JSON, indented unless `compact`.
    public static func data<T: Encodable>(_ value: T, compact: Bool = false) throws -> Data {
        Data(try string(value, compact: compact).utf8)
    }

    /// `json` with `"reelVersion"` (this Reel's version) first when it is an object: every JSON
    /// document the tool prints or writes for people and scripts says which Reel made it.
    public static func versioned(_ json: JSONValue) -> JSONValue {
        guard case .object(let members) = json else { return json }
        var object: OrderedDictionary<String, JSONValue> = ["reelVersion": .string(ReelVersion.current.description)]
        for (key, value) in members where key != "reelVersion" { object[key] = value }
        return .object(object)
    }

    /// `value` as JSON text, indented unless `compact`.
    public static func string<T: Encodable>(_ value: T, compact: Bool = false) throws -> String {
        let json = try JSONValue(encoding: value)
        return compact ? JSONWriter.compact(json) : JSONWriter.pretty(json)
    }
}
