import Foundation

/// What a fetched body is, judged from its bytes (never from the URL's extension): HLS when it
/// starts with `#EXTM3U`, DASH when it is XML with an `MPD` root, binary data (media, for
/// playback to hand to the demuxer), otherwise a description of what it looked like, for the
/// `.notAPlaylist` error.
public enum ManifestContent: Sendable, Hashable {
    case hls
    case dash
    /// Binary data; the text names the format when it is a common one ("an MP4 file").
    case binary(String)
    /// Not a playlist; the text says what it looked like ("an HTML page (title 'Not Found')").
    case notAPlaylist(String)

    /// What the content looked like, for an error when a playlist was expected.
    public var looksLike: String? {
        switch self {
        case .hls, .dash: nil
        case .binary(let text), .notAPlaylist(let text): text
        }
    }

    public static func detect(_ data: Data) -> ManifestContent {
        let head = [UInt8](data.prefix(4096))
        var start = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < head.count, isSpace(head[start]) { start += 1 }
        if data.isEmpty { return .notAPlaylist("empty (0 bytes)") }
        if start == head.count && data.count <= head.count {
            return .notAPlaylist("empty (\(data.count) bytes of whitespace)")
        }
        let body = head[start...]
        if body.starts(with: "#EXT".utf8) { return .hls }
        if let binary = describeBinary(head) { return .binary(binary) }
        let text = String(decoding: body, as: UTF8.self)
        if body.first == UInt8(ascii: "#"),
            text.split(whereSeparator: \.isNewline).prefix(20).contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == "#EXTM3U"
            })
        {
            return .hls
        }
        if body.first == UInt8(ascii: "<") { return describeMarkup(text) }
        if body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") {
            return .notAPlaylist("a JSON document (starts '\(firstLine(text))')")
        }
        return .notAPlaylist("text that is neither HLS nor DASH (first line '\(firstLine(text))')")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func firstLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.count > 60 ? String(line.prefix(60)) + "..." : line
    }

    /// An HTML page, an MPD, or another XML document named by its root element.
    private static func describeMarkup(_ text: String) -> ManifestContent {
        let lower = text.lowercased()
        if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") || rootName(text)?.lowercased() == "html" {
            if let open = lower.range(of: "<title"), let close = lower.range(of: "</title>", range: open.upperBound..<lower.endIndex),
                let tagEnd = lower.range(of: ">", range: open.upperBound..<close.lowerBound)
            {
                let title = text[tagEnd.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
                return .notAPlaylist("an HTML page (title '\(title.prefix(60))')")
            }
            return .notAPlaylist("an HTML page")
        }
        guard let root = rootName(text) else { return .notAPlaylist("markup without a root element") }
        let local = root.split(separator: ":").last.map(String.init) ?? root
        if local == "MPD" { return .dash }
        return .notAPlaylist("an XML document with root <\(root)>, not <MPD>")
    }

    /// The name of the first element that is not a declaration, comment or doctype.
    private static func rootName(_ text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("?") || after.hasPrefix("!") {
                let terminator = after.hasPrefix("!--") ? "-->" : ">"
                guard let close = after.range(of: terminator) else { return nil }
                rest = after[close.upperBound...]
                continue
            }
            let name = after.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    /// A description when the head is binary (a NUL byte, or not UTF-8), naming common formats.
    private static func describeBinary(_ head: [UInt8]) -> String? {
        let hasNul = head.contains(0)
        // A multi-byte character may be cut at the end of a truncated head; leave it out.
        let checked = head.count < 4096 ? head[...] : head.dropLast(4)
        let validUTF8 = String(validating: checked, as: UTF8.self) != nil
        guard hasNul || !validUTF8 else { return nil }
        if head.count >= 8, head[4...7].elementsEqual("ftyp".utf8) || head[4...7].elementsEqual("styp".utf8) {
            return "an MP4 file"
        }
        if head.first == 0x47, head.count > 188, head[188] == 0x47 { return "an MPEG-TS stream" }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "a WebM/Matroska file" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if head.starts(with: "GIF8".utf8) { return "a GIF image" }
        if head.starts(with: [0x1F, 0x8B]) { return "gzip-compressed data (the server sent Content-Encoding the fetcher did not undo?)" }
        if head.starts(with: "ID3".utf8) { return "an audio file with an ID3 tag" }
        let shown = head.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        return "binary data (first bytes \(shown))"
    }
}
