import Foundation
import ReelCore

/// The videos of `video-feed.json` in file order. Entries without a URL or with a missing or bad
/// `thumbail.aspectRatio` (not two positive numbers, or not between 1:10 and 10:1) are skipped
/// and listed in one warning; a file that is not a JSON array is an `invalidCatalog` error. An
/// empty array is an empty catalog.
public struct FeedCatalog: Sendable {
    /// An entry left out, with why.
    public struct Skipped: Sendable, Equatable {
        public let index: Int
        public let reason: String

        public init(index: Int, reason: String) {
            self.index = index
            self.reason = reason
        }
    }

    public let entries: [CatalogEntry]
    public let skipped: [Skipped]
    /// The file or name the catalog came from, for messages.
    public let source: String

    public init(entries: [CatalogEntry], skipped: [Skipped] = [], source: String = "catalog") {
        self.entries = entries
        self.skipped = skipped
        self.source = source
    }

    /// One warning listing every skipped entry, or nil when none were skipped.
    public var warning: String? {
        guard !skipped.isEmpty else { return nil }
        let list = skipped.map { "#\($0.index) (\($0.reason))" }.joined(separator: ", ")
        return "\(source): skipped \(skipped.count) of \(skipped.count + entries.count) entries: \(list)"
    }

    /// Reads and parses a catalog file.
    public static func load(path: String) throws -> FeedCatalog {
        let bytes = try FileBytes.read(path, what: "feed catalog", code: .notFound)
        return try parse(bytes: bytes, source: "feed catalog '\(path)'")
    }

    /// Parses catalog JSON text.
    public static func parse(_ text: String, source: String = "feed catalog") throws -> FeedCatalog {
        try parse(bytes: Array(text.utf8), source: source)
    }

    public static func parse(bytes: [UInt8], source: String) throws -> FeedCatalog {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes)
        } catch {
            throw ReelError(.invalidCatalog, "\(source) is not valid JSON: \(error)")
        }
        guard case .array(let items) = document else {
            throw ReelError(.invalidCatalog, "\(source) must be a JSON array of videos, found \(document.kindDescription)")
        }
        var entries: [CatalogEntry] = []
        var skipped: [Skipped] = []
        for (index, item) in items.enumerated() {
            switch entry(item, index: index) {
            case .success(let entry): entries.append(entry)
            case .failure(let reason): skipped.append(Skipped(index: index, reason: reason.text))
            }
        }
        return FeedCatalog(entries: entries, skipped: skipped, source: source)
    }

    private struct Reason: Error {
        let text: String
    }

    private static func entry(_ item: JSONValue, index: Int) -> Result<CatalogEntry, Reason> {
        guard case .object = item else { return .failure(Reason(text: "not an object")) }
        let source = item["video_source"]
        guard let url = source?["url"]?.string?.trimmingCharacters(in: .whitespaces), !url.isEmpty else {
            return .failure(Reason(text: "no video_source.url"))
        }
        let thumbnail = item["thumbail"]
        guard let ratioText = thumbnail?["aspectRatio"]?.string else {
            return .failure(Reason(text: "no thumbail.aspectRatio"))
        }
        guard let ratio = AspectRatio(ratioText) else {
            if AspectRatio.numbers(ratioText) != nil {
                return .failure(Reason(text: "aspectRatio \"\(ratioText)\" is not \(AspectRatio.rangeText)"))
            }
            return .failure(Reason(text: "bad aspectRatio \"\(ratioText)\""))
        }
        return .success(CatalogEntry(
            index: index,
            url: url,
            sourceType: source?["sourceType"]?.string ?? "",
            aspectRatio: ratio,
            thumbnailTemplate: thumbnail?["dynamicImageUrl"]?.string ?? ""
        ))
    }
}
