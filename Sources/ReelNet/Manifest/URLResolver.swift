import Foundation

/// Resolves manifest URIs against a base URL (RFC 3986; query strings kept), remembering
/// recent answers: byte-range playlists repeat one URI thousands of times.
struct URLResolver {
    let base: URL
    private var cache: [String: URL] = [:]
    /// The base up to its last `/` (no query, no fragment) when it is a hierarchical URL: a
    /// plain relative name (`seg-1.ts`) resolves by appending, which is much cheaper than
    /// Foundation's general resolution.
    private let directory: ManifestDirectory?

    init(base: URL) {
        self.base = base
        let text = base.absoluteString
        let path = text.prefix { $0 != "?" && $0 != "#" }
        if path.contains("://"), let slash = path.lastIndex(of: "/"), path.distance(from: path.startIndex, to: slash) > 8 {
            directory = ManifestDirectory(text: String(path[...slash]), base: base)
        } else {
            directory = nil
        }
    }

    /// The absolute URL for `uri`, or nil when it is not a URL even after percent-encoding
    /// characters URLs cannot hold (spaces, for example).
    mutating func resolve(_ uri: String) -> URL? {
        if let known = cache[uri] { return known }
        if let directory, Self.isPlainRelativeName(uri), let url = URL(string: directory.text + uri) { return url }
        let resolved = Self.resolve(uri, against: base)
        if let resolved, cache.count < 4096 { cache[uri] = resolved }
        return resolved
    }

    /// Where a segment URI points: its name in the base's directory when it is a plain relative
    /// name (no `URL` is built, see `SegmentLocation`), else the resolved URL; nil when it is
    /// not a URL.
    mutating func location(_ uri: String) -> SegmentLocation? {
        if let directory, Self.isPlainRelativeName(uri) { return .inDirectory(directory, uri) }
        return resolve(uri).map { .url($0) }
    }

    /// Starts with a letter, digit or `_` and holds only unreserved characters, `/`, `=` and
    /// `&` (after a `?`): no scheme, no dot segments, nothing to encode.
    static func isPlainRelativeName(_ uri: String) -> Bool {
        var sawQuery = false
        var previous: UInt8 = 0
        for (index, byte) in uri.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                break
            case UInt8(ascii: "-"), UInt8(ascii: "~"):
                if index == 0 { return false }
            case UInt8(ascii: "."):
                // "." and ".." segments need real resolution.
                if index == 0 || previous == UInt8(ascii: "/") || previous == UInt8(ascii: ".") { return false }
            case UInt8(ascii: "/"):
                if index == 0 || previous == UInt8(ascii: "/") { return false }
            case UInt8(ascii: "?"):
                if index == 0 || sawQuery { return false }
                sawQuery = true
            case UInt8(ascii: "="), UInt8(ascii: "&"):
                if !sawQuery { return false }
            default:
                return false
            }
            previous = byte
        }
        return !uri.isEmpty
    }

    static func resolve(_ uri: String, against base: URL) -> URL? {
        if let url = URL(string: uri, relativeTo: base) { return url.absoluteURL }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#%")
        guard let encoded = uri.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: encoded, relativeTo: base)?.absoluteURL
    }
}
