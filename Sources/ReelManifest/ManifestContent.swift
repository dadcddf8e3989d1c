import Foundation
import ReelCore

/// What a fetched body is, judged from its bytes (never from the URL's extension alone): HLS
/// when it starts with `#EXTM3U`, DASH when it is XML with an `MPD` root, binary data (media,
/// for playback to hand to the demuxer), otherwise a description of what it looked like, for the
/// `.notAPlaylist` error.
///
/// Bytes that look like a manifest are judged as one even when they are not UTF-8 text, so the
/// parsers refuse them with the offset of the first bad byte: handed to FFmpeg as media, they
/// would be read by its own HLS or DASH parser with Reel's manifest rules bypassed. For the same
/// reason, binary data FFmpeg would probe as a DASH MPD, and binary data named as a playlist that
/// is no media container, are not media.
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

    /// Judges `data` (its first 4 KiB). `url`, when given, names the resource: binary data under
    /// a playlist's name (`.m3u8`, `.m3u`, `.mpd`) is media only when it is a media container.
    public static func detect(_ data: Data, url: URL? = nil) -> ManifestContent {
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
        let text = String(decoding: body, as: UTF8.self)
        if body.first == UInt8(ascii: "#"),
            text.split(whereSeparator: \.isNewline).prefix(20).contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == "#EXTM3U"
            })
        {
            return .hls
        }
        // No media container starts with '<': this is markup, text or not.
        if body.first == UInt8(ascii: "<") { return describeMarkup(text) }
        if let binary = describeBinary(head) {
            if let refusal = refusal(ofBinary: head, format: binary, url: url) { return .notAPlaylist(refusal) }
            return .binary(binary.description)
        }
        if body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") {
            return .notAPlaylist("a JSON document (starts '\(firstLine(text))')")
        }
        return .notAPlaylist("text that is neither HLS nor DASH (first line '\(firstLine(text))')")
    }

    /// What a segment's first bytes (up to 4 KiB) are when they are surely not media: text of any
    /// kind (an HTML error page, a playlist, JSON), nothing, an image or compressed data, or
    /// binary data FFmpeg would probe as a DASH MPD. Nil when they may be media: a container Reel
    /// knows, or other binary data (encrypted, or a format FFmpeg may still read).
    public static func notMedia(_ data: Data) -> String? {
        switch detect(data) {
        case .hls: return "an HLS playlist"
        case .dash: return "a DASH MPD"
        case .notAPlaylist(let looksLike): return looksLike
        case .binary(let description):
            guard let format = describeBinary([UInt8](data.prefix(4096))), format.isKnown, !format.isMedia else { return nil }
            return description
        }
    }

    /// Why binary data must not reach the demuxer as media, or nil: FFmpeg's DASH probe finds
    /// `<MPD` anywhere in the text before the first NUL byte, and a playlist's name on data that
    /// is no media container means a broken playlist, not a video.
    private static func refusal(ofBinary head: [UInt8], format: BinaryFormat, url: URL?) -> String? {
        let checked = head.count < 4096 ? head : Array(head.dropLast(4))
        let invalid = UTF8Text.firstInvalidOffset(checked).map { UTF8Text.describe(checked, offset: $0) }
        let notText = invalid.map { "not UTF-8 text (\($0))" } ?? "not UTF-8 text"
        let text = head.prefix { $0 != 0 }.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        if let found = text.firstRange(of: Array("<mpd".utf8)) {
            return "\(format.description), \(notText), holding '<MPD' at offset \(found.lowerBound), which FFmpeg would read as a DASH MPD"
        }
        if let url, !format.isMedia, ["m3u8", "m3u", "mpd"].contains(url.pathExtension.lowercased()) {
            return "named as a playlist (.\(url.pathExtension.lowercased())) but \(notText) and no media container (\(format.description))"
        }
        return nil
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

    /// A binary format recognised from its first bytes, and whether it is a media container the
    /// demuxer can play.
    private struct BinaryFormat {
        let description: String
        let isMedia: Bool
        /// False for binary data of no format Reel recognises.
        var isKnown = true
    }

    /// The format when the head is binary (a NUL byte, or not UTF-8), naming common ones.
    private static func describeBinary(_ head: [UInt8]) -> BinaryFormat? {
        let hasNul = head.contains(0)
        // A multi-byte character may be cut at the end of a truncated head; leave it out.
        let checked = head.count < 4096 ? head[...] : head.dropLast(4)
        let validUTF8 = String(validating: checked, as: UTF8.self) != nil
        guard hasNul || !validUTF8 else { return nil }
        if head.count >= 8, ["ftyp", "styp", "moof", "moov", "sidx"].contains(where: { head[4...7].elementsEqual($0.utf8) }) {
            return BinaryFormat(description: "an MP4 file", isMedia: true)
        }
        if head.first == 0x47, head.count > 188, head[188] == 0x47 {
            return BinaryFormat(description: "an MPEG-TS stream", isMedia: true)
        }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return BinaryFormat(description: "a WebM/Matroska file", isMedia: true) }
        if head.starts(with: "ID3".utf8) { return BinaryFormat(description: "an audio file with an ID3 tag", isMedia: true) }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return BinaryFormat(description: "a PNG image", isMedia: false) }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return BinaryFormat(description: "a JPEG image", isMedia: false) }
        if head.starts(with: "GIF8".utf8) { return BinaryFormat(description: "a GIF image", isMedia: false) }
        if head.starts(with: [0x1F, 0x8B]) {
            return BinaryFormat(
                description: "gzip-compressed data (the server sent Content-Encoding the fetcher did not undo?)", isMedia: false)
        }
        let shown = head.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        return BinaryFormat(description: "binary data (first bytes \(shown))", isMedia: false, isKnown: false)
    }
}
