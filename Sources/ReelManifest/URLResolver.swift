import Foundation
import ReelCore

/// Resolves manifest URIs against a base URL (RFC 3986; query strings kept), remembering
/// recent answers: byte-range playlists repeat one URI thousands of times.
public struct URLResolver {
    let base: URL
    private var cache: [String: URL] = [:]
    /// The base up to its last `/` (no query, no fragment) when it is a hierarchical URL: a
    /// plain relative name (`seg-1.ts`) resolves by appending, which is much cheaper than
    /// Foundation's general resolution.
    private let directory: ManifestDirectory?
    /// Directory parts of URIs (`../media/`) resolved once.
    private var directories: [String: ManifestDirectory?] = [:]

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

    /// Where a segment URI points, building no `URL` in the common cases (see `SegmentLocation`):
    /// a plain relative name is kept with the base's directory (resolved as `./` once when the
    /// base is not of the usual `scheme://host/path` form); a plain absolute http(s) URL as
    /// written; a plain name after a directory part (`../media/seg-1.m4s`) with that part
    /// resolved once (by Foundation, then remembered) and the name appended. Anything else is
    /// resolved in full and kept as text. Nil when it is not a URL.
    mutating func location(_ uri: String) -> SegmentLocation? {
        if Self.isPlainRelativeName(uri), let directory = directory ?? directory(resolving: "./") {
            return .inDirectory(directory, uri)
        }
        if Self.isPlainAbsoluteURL(uri) { return .absolute(uri) }
        if let (part, name) = Self.directoryPart(of: uri), let directory = directory(resolving: part) {
            return .inDirectory(directory, name)
        }
        return resolve(uri).map { .absolute($0.absoluteString) }
    }

    /// The directory `part` (ending in `/`) resolves to, remembered; nil when it does not
    /// resolve to a URL ending in `/`, or when too many parts are remembered already.
    private mutating func directory(resolving part: String) -> ManifestDirectory? {
        if let known = directories[part] { return known }
        guard directories.count < 256 else { return nil }
        var found: ManifestDirectory?
        if let url = Self.resolve(part, against: base), url.absoluteString.hasSuffix("/") {
            found = ManifestDirectory(text: url.absoluteString, base: url)
        }
        directories[part] = found
        return found
    }

    /// `uri` split after its last `/` into a directory part and a name, when the name is a plain
    /// relative name and the part holds only characters a URL holds as they are (no query or
    /// fragment): resolving the part and appending the name is then RFC 3986 resolution of the
    /// whole, as the name holds no dot segment.
    static func directoryPart(of uri: String) -> (part: String, name: String)? {
        let bytes = uri.utf8
        let pathEnd = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        guard let slash = bytes[..<pathEnd].lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let part = bytes[...slash]
        guard part.allSatisfy(isDirectoryByte) else { return nil }
        let name = String(decoding: bytes[bytes.index(after: slash)...], as: UTF8.self)
        guard isPlainRelativeName(name) else { return nil }
        return (String(decoding: part, as: UTF8.self), name)
    }

    /// Letters, digits and `-._~/:@!$&'()*+,;=%`: what a URL path holds without encoding.
    private static func isDirectoryByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "-._~/:@!$&'()*+,;=%".utf8.contains(byte)
    }

    /// `http://` or `https://`, a host (and port) of letters, digits, `.`, `-` and `:`, then a
    /// path that `isPlainRelativeName` accepts: absolute as written, nothing to resolve.
    static func isPlainAbsoluteURL(_ uri: String) -> Bool {
        let bytes = uri.utf8
        let schemeLength: Int
        if bytes.starts(with: "https://".utf8) {
            schemeLength = 8
        } else if bytes.starts(with: "http://".utf8) {
            schemeLength = 7
        } else {
            return false
        }
        let rest = bytes.dropFirst(schemeLength)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return false }
        let authority = rest[..<slash]
        guard let first = authority.first, Self.isAlphanumeric(first),
            authority.allSatisfy({ Self.isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") })
        else { return false }
        return isPlainRelativeName(String(decoding: rest[rest.index(after: slash)...], as: UTF8.self))
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
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

    /// `uri` resolved against `base` (RFC 3986), percent-encoding what a URL cannot hold; nil when
    /// it is not a URL even then.
    public static func resolve(_ uri: String, against base: URL) -> URL? {
        if let url = URL(string: uri, relativeTo: base) { return url.absoluteURL }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#%")
        guard let encoded = uri.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: encoded, relativeTo: base)?.absoluteURL
    }
}
