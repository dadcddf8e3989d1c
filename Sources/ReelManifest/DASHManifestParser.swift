import Foundation
import ReelCore

/// Parses a DASH MPD (ISO/IEC 23009-1) into renditions with resolved segment lists. The XML is
/// read with Foundation's `XMLParser`. Each Representation becomes one rendition keyed by
/// (type, language, `@id`); a rendition present in several periods gets its segments
/// concatenated in period order, the first segment of each later period marked as a
/// discontinuity. What an MPD may expand to is bounded by `ManifestLimits`.
public enum DASHManifestParser {
    /// Parses `data` loaded from `url`. Throws `ReelError` `.malformedManifest` naming the URL,
    /// the line and the cause, also when the MPD goes past one of `limits`.
    public static func parse(_ data: Data, url: URL, limits: ManifestLimits = .default) throws -> DASHManifest {
        let tree: XMLTree
        do {
            tree = try XMLTree.parse(data, maxElements: limits.maxXMLElements)
        } catch let failure as XMLTree.ParseFailure {
            throw ReelError(
                .malformedManifest, "\(url.absoluteString) line \(failure.line): \(failure.reason)")
        }
        do {
            var builder = DASHBuilder(url: url, limits: limits)
            return try builder.build(tree.root)
        } catch let failure as DASHFailure {
            throw ReelError(.malformedManifest, "\(url.absoluteString) line \(failure.line): \(failure.message)")
        }
    }
}
