import Foundation

/// Encodes Reel's reports (CLI output, the CDN bill, manifest reports) as JSON for files and
/// scripts: sorted keys so the output is stable, slashes unescaped, and a number that is not
/// finite (an empty measurement) as `null`, as `JSONWriter` writes it, never as a string.
public enum ReportJSON {
    /// What JSONEncoder writes for a non-finite number before it becomes `null`: control
    /// characters, which it always escapes, so no text of a report can look like it.
    private static let marker = "\u{1}reel:non-finite\u{1}"
    private static let encodedMarker = #""\u0001reel:non-finite\u0001""#

    /// `value` as JSON, indented unless `compact`.
    public static func data<T: Encodable>(_ value: T, compact: Bool = false) throws -> Data {
        Data(try string(value, compact: compact).utf8)
    }

    /// `value` as JSON text, indented unless `compact`.
    public static func string<T: Encodable>(_ value: T, compact: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes]
                                           : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: marker, negativeInfinity: marker,
                                                                      nan: marker)
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return text.contains(encodedMarker) ? text.replacingOccurrences(of: encodedMarker, with: "null") : text
    }
}
