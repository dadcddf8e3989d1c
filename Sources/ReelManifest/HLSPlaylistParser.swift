import Foundation
import ReelCore

/// Parses HLS playlist text (RFC 8216) into a master or a media playlist with resolved URLs.
/// Accepts only what FFmpeg 5.1's HLS demuxer reads the same way (which is what plays the
/// stream); recovers from malformed tags that only describe the playlist and rejects input whose
/// segments, byte ranges, order or keys would be guessed. docs/manifest-policy.md has the rules.
/// Parsing is linear in the playlist's size, and a playlist with more URI lines than
/// `ManifestLimits.maxSegments` is refused before any segment is built.
public enum HLSPlaylistParser {
    /// Parses `data` loaded from `url`; relative URIs resolve against `url`.
    /// Throws `ReelError` `.malformedPlaylist` naming the URL, the line and the cause.
    public static func parse(_ data: Data, url: URL, limits: ManifestLimits = .default) throws -> Manifest {
        var parser = HLSParserState(url: url, limits: limits)
        try parser.run([UInt8](data))
        return try parser.finish()
    }
}

/// The line-by-line state of one parse.
private struct HLSParserState {
    let url: URL
    let limits: ManifestLimits
    var resolver: URLResolver

    // Shared.
    var version: Int?
    var independentSegments = false
    var start: MediaPlaylist.StartOffset?
    var warnings = WarningList()

    // Master.
    var variants: [Variant] = []
    var iFrameVariants: [Variant] = []
    var media: [AlternateMedia] = []
    var pendingStreamInf: (attributes: HLSAttributeList, line: Int)?
    var firstMasterTagLine: Int?

    // Media.
    var targetDuration: Int?
    var targetDurationLine: Int?
    var mediaSequence: Int64 = 0
    var mediaSequenceLine: Int?
    var discontinuitySequence: Int64 = 0
    var discontinuitySequenceLine: Int?
    var endList = false
    var playlistType: MediaPlaylist.PlaylistType?
    var iFramesOnly = false
    var partTargetDuration: Double?
    var skippedSegments = 0
    var segments: [Segment] = []
    var taggedDates: [Int: Date] = [:]
    var firstMediaTagLine: Int?
    var mediaHeaderTags: [(name: String, line: Int)] = []
    var mediaHeaderTagsDropped = 0

    // Per segment, reset after each URI line.
    var pendingDuration: (value: Double, line: Int)?
    var pendingRange: (length: Int64, offset: Int64?, line: Int)?
    var pendingDiscontinuity = false
    var pendingDate: Date?
    var currentKey: Key? { didSet { contextIsStale = true } }
    var keyDeclaredSinceSegment = false
    var currentMap: InitSection? { didSet { contextIsStale = true } }
    /// The key and map of the segments since the last `EXT-X-KEY`/`EXT-X-MAP`, shared by them.
    var context = SegmentContext.none
    var contextIsStale = false

    init(url: URL, limits: ManifestLimits) {
        self.url = url
        self.limits = limits
        self.resolver = URLResolver(base: url)
    }

    func failure(_ line: Int, _ message: String) -> ReelError {
        ReelError(.malformedPlaylist, "\(url.absoluteString) line \(line): \(message)")
    }

    mutating func warn(_ line: Int, _ message: String) {
        warnings.add(ManifestWarning(line: line, message))
    }

    // MARK: Lines

    mutating func run(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { throw failure(1, "the playlist is empty (no #EXTM3U header)") }
        segments.reserveCapacity(try preflight(bytes))
        var lineNumber = 0
        var lineStart = 0
        let count = bytes.count
        while lineStart < count || lineNumber == 0 {
            var lineEnd = lineStart
            while lineEnd < count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let nextStart = lineEnd + 1
            lineNumber += 1
            // Trailing whitespace (and the CR of CRLF) goes, as FFmpeg's read_chomp_line does.
            var end = lineEnd
            while end > lineStart, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
            let line = bytes[lineStart..<end]
            if lineNumber == 1 {
                try checkHeader(line, bytes: bytes)
            } else if !line.isEmpty {
                try handle(line, number: lineNumber)
            }
            lineStart = nextStart
        }
    }

    /// Checks what must hold before anything is built, and returns the number of URI lines
    /// (segments, or a master's variants): the bytes are UTF-8 text (RFC 8216 section 4.1; FFmpeg
    /// would read other bytes differently from Reel), and there are at most
    /// `limits.maxSegments` URI lines.
    func preflight(_ bytes: [UInt8]) throws -> Int {
        if let offset = UTF8Text.firstInvalidOffset(bytes) {
            throw failure(
                UTF8Text.line(of: offset, in: bytes),
                "\(UTF8Text.describe(bytes, offset: offset)); a playlist is UTF-8 text (RFC 8216)")
        }
        // A URI line is one that, once trailing whitespace is gone, is not empty and does not
        // start with '#'; one starting with whitespace is refused later anyway.
        var uriLines = 0
        var line = 1
        let count = bytes.count
        var index = 0
        while index < count {
            if bytes[index] == 0x0A {
                line += 1
                let next = index + 1
                if next < count, bytes[next] != UInt8(ascii: "#"), bytes[next] != 0x0A, !Self.isWhitespace(bytes[next]) {
                    uriLines += 1
                    if uriLines > limits.maxSegments {
                        throw failure(line, "more than \(limits.maxSegments) URI lines (segments or variants) (manifest.maxSegments)")
                    }
                }
            }
            index += 1
        }
        return uriLines
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    func checkHeader(_ line: ArraySlice<UInt8>, bytes: [UInt8]) throws {
        if line.elementsEqual("#EXTM3U".utf8) { return }
        if line.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw failure(1, "a UTF-8 byte order mark precedes #EXTM3U (FFmpeg's HLS demuxer refuses it)")
        }
        let shown = String(decoding: line.prefix(80), as: UTF8.self)
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let later = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .firstIndex { $0.trimmingCharacters(in: .whitespaces) == "#EXTM3U" }
        if let later, later > 0 {
            throw failure(1, "expected #EXTM3U as the first line, found '\(shown)' (#EXTM3U is on line \(later + 1); FFmpeg requires it on line 1)")
        }
        throw failure(1, "expected #EXTM3U as the first line, found '\(shown)'")
    }

    mutating func handle(_ line: ArraySlice<UInt8>, number: Int) throws {
        let first = line[line.startIndex]
        if Self.isWhitespace(first) {
            let shown = String(decoding: line.prefix(80), as: UTF8.self)
            throw failure(number, "line starts with whitespace ('\(shown)'); FFmpeg would request the whitespace as part of the URI")
        }
        if first != UInt8(ascii: "#") {
            try handleURI(String(decoding: line, as: UTF8.self), line: number)
            return
        }
        guard line.starts(with: "#EXT".utf8) else { return }  // A comment.
        // Split at the first colon on bytes: Character-level String search is slow for the
        // hundreds of thousands of lines of a long VOD playlist.
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let name = String(decoding: line[..<colon], as: UTF8.self)
        let valueBytes = colon < line.endIndex ? line[(colon + 1)...] : []
        if name == "#EXTINF" {
            try handleDuration(valueBytes, line: number)
            return
        }
        let value = Substring(String(decoding: valueBytes, as: UTF8.self))
        try handleTag(name, value: value, line: number)
    }

    // MARK: Tags

    mutating func handleTag(_ name: String, value: Substring, line: Int) throws {
        switch name {
        case "#EXTM3U":
            warn(line, "repeated #EXTM3U ignored")
        case "#EXT-X-BYTERANGE":
            try noteMediaTag(line)
            pendingRange = try parseByteRange(value, line: line, tag: name)
        case "#EXT-X-DISCONTINUITY":
            try noteMediaTag(line)
            pendingDiscontinuity = true
        case "#EXT-X-PROGRAM-DATE-TIME":
            try noteMediaTag(line)
            if let date = ISO8601Date.parse(value.trimmingCharacters(in: .whitespaces)) {
                pendingDate = date
            } else {
                warn(line, "#EXT-X-PROGRAM-DATE-TIME '\(value)' is not an ISO 8601 date; ignored")
            }
        case "#EXT-X-KEY":
            try noteMediaTag(line)
            try handleKey(HLSAttributeList(value), line: line)
        case "#EXT-X-MAP":
            try noteMediaTag(line)
            try handleMap(HLSAttributeList(value), line: line)
        case "#EXT-X-TARGETDURATION":
            noteMediaHeader(name, line: line)
            if let previous = targetDurationLine {
                warn(line, "second #EXT-X-TARGETDURATION (first on line \(previous)); the last one is used")
            }
            targetDurationLine = line
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            // FFmpeg 5.1 refuses the playlist when strtoll reads a negative value or one that
            // overflows its microsecond clock; anything else that is not a number reads as 0.
            let sign = trimmed.hasPrefix("-") || trimmed.hasPrefix("+") ? trimmed.prefix(1) : ""
            let digits = trimmed.dropFirst(sign.count).prefix { $0.isASCII && $0.isNumber }
            let magnitude = digits.count > 13 ? Int64.max : Int64(digits) ?? 0
            if !digits.isEmpty, magnitude != 0, sign == "-" || magnitude >= Int64.max / 1_000_000 {
                throw failure(line, "#EXT-X-TARGETDURATION '\(trimmed)' is out of range (FFmpeg 5.1 refuses the playlist)")
            }
            if let parsed = Self.decimalInteger(value) {
                targetDuration = Int(parsed)
            } else {
                targetDuration = nil
                warn(line, "#EXT-X-TARGETDURATION '\(value)' is not a decimal integer; derived from the longest segment instead")
            }
        case "#EXT-X-MEDIA-SEQUENCE":
            noteMediaHeader(name, line: line)
            mediaSequence = try sequenceHeader(name, value: value, line: line, previousLine: mediaSequenceLine)
            mediaSequenceLine = line
        case "#EXT-X-DISCONTINUITY-SEQUENCE":
            noteMediaHeader(name, line: line)
            discontinuitySequence = try sequenceHeader(
                name, value: value, line: line, previousLine: discontinuitySequenceLine)
            discontinuitySequenceLine = line
        case "#EXT-X-ENDLIST":
            noteMediaHeader(name, line: line)
            endList = true
        case "#EXT-X-PLAYLIST-TYPE":
            noteMediaHeader(name, line: line)
            if let type = MediaPlaylist.PlaylistType(rawValue: value.trimmingCharacters(in: .whitespaces)) {
                playlistType = type
            } else {
                playlistType = nil
                warn(line, "#EXT-X-PLAYLIST-TYPE '\(value)' is neither VOD nor EVENT; ignored")
            }
        case "#EXT-X-I-FRAMES-ONLY":
            noteMediaHeader(name, line: line)
            iFramesOnly = true
        case "#EXT-X-PART-INF":
            noteMediaHeader(name, line: line)
            let attributes = HLSAttributeList(value)
            partTargetDuration = attributes["PART-TARGET"].flatMap { Self.decimalFloat($0) }
        case "#EXT-X-SKIP":
            noteMediaHeader(name, line: line)
            let attributes = HLSAttributeList(value)
            guard let skipped = attributes["SKIPPED-SEGMENTS"].flatMap({ Self.decimalInteger($0) }),
                skipped <= Int64(Int32.max)
            else {
                throw failure(line, "#EXT-X-SKIP has no valid SKIPPED-SEGMENTS; the sequence numbers of the segments would be guessed")
            }
            guard segments.isEmpty else {
                throw failure(line, "#EXT-X-SKIP after the first segment; the sequence numbers of the segments would be guessed")
            }
            skippedSegments = Int(skipped)
        case "#EXT-X-PART", "#EXT-X-PRELOAD-HINT", "#EXT-X-SERVER-CONTROL", "#EXT-X-RENDITION-REPORT",
            "#EXT-X-GAP", "#EXT-X-BITRATE", "#EXT-X-DATERANGE", "#EXT-X-CUE-OUT", "#EXT-X-CUE-IN":
            // Low-latency parts and hints, and metadata: Reel plays whole segments only.
            break
        case "#EXT-X-VERSION":
            if let parsed = Self.decimalInteger(value), parsed <= 100 {
                version = Int(parsed)
            } else {
                warn(line, "#EXT-X-VERSION '\(value)' is not a decimal integer; ignored")
            }
        case "#EXT-X-INDEPENDENT-SEGMENTS":
            independentSegments = true
        case "#EXT-X-START":
            let attributes = HLSAttributeList(value)
            if let offset = attributes["TIME-OFFSET"].flatMap({ Self.signedDecimalFloat($0) }) {
                start = MediaPlaylist.StartOffset(timeOffset: offset, precise: attributes.bool("PRECISE"))
            } else {
                warn(line, "#EXT-X-START has no valid TIME-OFFSET; ignored")
            }
        case "#EXT-X-STREAM-INF":
            try noteMasterTag(line)
            if let pending = pendingStreamInf {
                throw failure(line, "#EXT-X-STREAM-INF on line \(pending.line) has no URI line after it")
            }
            pendingStreamInf = (HLSAttributeList(value), line)
        case "#EXT-X-I-FRAME-STREAM-INF":
            try noteMasterTag(line)
            let attributes = HLSAttributeList(value)
            guard let uri = attributes["URI"], !uri.isEmpty else {
                throw failure(line, "#EXT-X-I-FRAME-STREAM-INF has no URI")
            }
            iFrameVariants.append(try makeVariant(attributes, uri: uri, line: line, tag: name))
        case "#EXT-X-MEDIA":
            try noteMasterTag(line)
            if let entry = try makeMedia(HLSAttributeList(value), line: line) { media.append(entry) }
        case "#EXT-X-ALLOW-CACHE":
            // Removed from the protocol in version 7; it never changes what is fetched.
            break
        default:
            break  // Unknown tags are ignored (RFC 8216 section 6.3.1).
        }
    }

    /// `#EXTINF:<duration>,[<title>]`, read from bytes (the most frequent tag).
    mutating func handleDuration(_ value: ArraySlice<UInt8>, line: Int) throws {
        try noteMediaTag(line)
        let comma = value.firstIndex(of: UInt8(ascii: ",")) ?? value.endIndex
        let durationBytes = value[..<comma]
        var duration = Self.decimalFloat(bytes: durationBytes) ?? -1
        // Over 11 days for one segment is a typo or garbage, not media.
        if duration < 0 || duration > 1_000_000 {
            // The segment exists either way; only its length is unknown. RFC 8216 bounds it by
            // the target duration, which is what it gets once the playlist is read.
            let text = String(decoding: durationBytes, as: UTF8.self)
            warn(line, "#EXTINF duration '\(text)' is not a number of seconds from 0 to 1000000; the target duration is used")
            duration = -1
        }
        if let previous = pendingDuration {
            warn(line, "#EXTINF replaces the one on line \(previous.line), which had no URI")
        }
        pendingDuration = (duration, line)
    }

    mutating func noteMediaTag(_ line: Int) throws {
        if firstMediaTagLine == nil { firstMediaTagLine = line }
        if let masterLine = firstMasterTagLine {
            throw failure(line, "segment tag in a master playlist (master tag on line \(masterLine)); a playlist is either a master or a media playlist")
        }
    }

    /// Remembers a media playlist header for a warning should this be a master; past the
    /// warning limit only the number is kept.
    mutating func noteMediaHeader(_ name: String, line: Int) {
        if mediaHeaderTags.count < WarningList.limit {
            mediaHeaderTags.append((name, line))
        } else {
            mediaHeaderTagsDropped += 1
        }
    }

    mutating func noteMasterTag(_ line: Int) throws {
        if firstMasterTagLine == nil { firstMasterTagLine = line }
        if let mediaLine = firstMediaTagLine {
            throw failure(line, "master playlist tag in a media playlist (segment tag on line \(mediaLine)); a playlist is either a master or a media playlist")
        }
    }

    mutating func sequenceHeader(_ name: String, value: Substring, line: Int, previousLine: Int?) throws -> Int64 {
        if let previousLine {
            throw failure(line, "second \(name) (first on line \(previousLine)); segment sequence numbers would be ambiguous")
        }
        if !segments.isEmpty || pendingDuration != nil {
            throw failure(line, "\(name) after the first segment; it must precede every segment")
        }
        guard let parsed = Self.decimalInteger(value) else {
            throw failure(line, "\(name) '\(value)' is not a decimal integer (0 to 2^63-1); segment sequence numbers and implicit IVs depend on it")
        }
        return parsed
    }

    // MARK: Keys and maps

    mutating func handleKey(_ attributes: HLSAttributeList, line: Int) throws {
        guard let method = attributes["METHOD"], !method.isEmpty else {
            throw failure(line, "#EXT-X-KEY has no METHOD")
        }
        if method == "NONE" {
            currentKey = nil
            keyDeclaredSinceSegment = true
            return
        }
        guard let uri = attributes["URI"], !uri.isEmpty else {
            throw failure(line, "#EXT-X-KEY METHOD=\(method) has no URI")
        }
        guard let resolved = resolver.resolve(uri) else {
            throw failure(line, "#EXT-X-KEY URI '\(uri)' is not a valid URL")
        }
        var iv: Data?
        if let ivText = attributes["IV"] {
            guard let parsed = Self.parseIV(ivText) else {
                throw failure(line, "#EXT-X-KEY IV '\(ivText)' is not 0x followed by 32 hex digits")
            }
            iv = parsed
        }
        let keyFormat = attributes["KEYFORMAT"]
        let key = Key(method: method, uri: uri, resolvedURL: resolved, iv: iv, keyFormat: keyFormat)
        let isIdentity = keyFormat == nil || keyFormat == "identity"
        if keyDeclaredSinceSegment, !isIdentity, let current = currentKey,
            current.keyFormat == nil || current.keyFormat == "identity"
        {
            // Several KEY tags for one segment offer the same content to different DRM systems;
            // keep the plain AES key Reel can use.
            return
        }
        currentKey = key
        keyDeclaredSinceSegment = true
    }

    mutating func handleMap(_ attributes: HLSAttributeList, line: Int) throws {
        guard let uri = attributes["URI"], !uri.isEmpty else {
            throw failure(line, "#EXT-X-MAP has no URI")
        }
        guard let resolved = resolver.resolve(uri) else {
            throw failure(line, "#EXT-X-MAP URI '\(uri)' is not a valid URL")
        }
        var range: ByteRange?
        if let rangeText = attributes["BYTERANGE"] {
            let parsed = try parseByteRange(Substring(rangeText), line: line, tag: "#EXT-X-MAP BYTERANGE")
            range = ByteRange(offset: parsed.offset ?? 0, length: parsed.length)
        }
        currentMap = InitSection(uri: uri, resolvedURL: resolved, byteRange: range, key: currentKey)
    }

    mutating func parseByteRange(_ value: Substring, line: Int, tag: String) throws -> (length: Int64, offset: Int64?, line: Int) {
        let parts = value.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let length = Self.decimalInteger(parts[0]) else {
            throw failure(line, "\(tag) '\(value)' does not start with a decimal length")
        }
        guard parts.count == 2 else { return (length, nil, line) }
        let offsetText = parts[1].trimmingCharacters(in: .whitespaces)
        if offsetText.isEmpty {
            // FFmpeg reads "n@" as offset 0 (strtoll of nothing), not as a continuation.
            warn(line, "\(tag) '\(value)' has an empty offset; read as 0, as FFmpeg does")
            return (length, 0, line)
        }
        guard let offset = Self.decimalInteger(offsetText) else {
            throw failure(line, "\(tag) offset '\(offsetText)' is not a decimal integer")
        }
        guard offset <= Int64.max - length else {
            throw failure(line, "\(tag) '\(value)' ends beyond 2^63 bytes")
        }
        return (length, offset, line)
    }

    // MARK: URI lines

    mutating func handleURI(_ uri: String, line: Int) throws {
        if let streamInf = pendingStreamInf {
            pendingStreamInf = nil
            variants.append(try makeVariant(streamInf.attributes, uri: uri, line: line, tag: "#EXT-X-STREAM-INF"))
            return
        }
        guard let duration = pendingDuration else {
            throw failure(line, "URI '\(uri.prefix(80))' has no #EXTINF before it (RFC 8216 requires one per segment; FFmpeg drops such a line, other players keep it)")
        }
        try noteMediaTag(line)
        guard let location = resolver.location(uri) else {
            throw failure(line, "segment URI '\(uri.prefix(80))' is not a valid URL")
        }
        var range: ByteRange?
        if let pending = pendingRange {
            let offset: Int64
            if let explicit = pending.offset {
                offset = explicit
            } else if let previous = segments.last, let previousRange = previous.byteRange {
                if previous.uri != uri {
                    warn(pending.line, "#EXT-X-BYTERANGE without an offset follows a segment of another URI; it continues after that segment's range, as FFmpeg does")
                }
                offset = previousRange.end
            } else {
                warn(pending.line, "#EXT-X-BYTERANGE without an offset and no previous sub-range; it starts at 0, as FFmpeg does")
                offset = 0
            }
            guard offset <= Int64.max - pending.length else {
                throw failure(pending.line, "#EXT-X-BYTERANGE ends beyond 2^63 bytes")
            }
            range = ByteRange(offset: offset, length: pending.length)
        }
        let position = Int64(skippedSegments) + Int64(segments.count)
        guard let sequenceNumber = mediaSequence.checkedAdding(position) else {
            throw failure(line, "the segment's media sequence number (EXT-X-MEDIA-SEQUENCE \(mediaSequence) + \(position)) goes beyond 2^63-1")
        }
        if contextIsStale {
            context = SegmentContext(key: currentKey, initSection: currentMap)
            contextIsStale = false
        }
        if let pendingDate { taggedDates[segments.count] = pendingDate }
        segments.append(
            Segment(
                uri: uri, location: location, duration: duration.value, byteRange: range, context: context,
                discontinuity: pendingDiscontinuity, programDateTime: pendingDate, sequenceNumber: sequenceNumber))
        pendingDuration = nil
        pendingRange = nil
        pendingDiscontinuity = false
        pendingDate = nil
        keyDeclaredSinceSegment = false
    }

    // MARK: Master entries

    mutating func makeVariant(_ attributes: HLSAttributeList, uri: String, line: Int, tag: String) throws -> Variant {
        guard let bandwidthText = attributes["BANDWIDTH"] else {
            throw failure(line, "\(tag) has no BANDWIDTH (required; variants are chosen by it)")
        }
        guard let bandwidth = Self.decimalInteger(bandwidthText), bandwidth <= Int64(Int.max) else {
            throw failure(line, "\(tag) BANDWIDTH '\(bandwidthText)' is not a decimal integer")
        }
        guard let resolved = resolver.resolve(uri) else {
            throw failure(line, "variant URI '\(uri.prefix(80))' is not a valid URL")
        }
        var resolution: Resolution?
        if let text = attributes["RESOLUTION"] {
            resolution = Self.parseResolution(text)
            if resolution == nil { warn(line, "\(tag) RESOLUTION '\(text)' is not WIDTHxHEIGHT; ignored") }
        }
        return Variant(
            uri: uri, resolvedURL: resolved, bandwidth: Int(bandwidth),
            averageBandwidth: attributes["AVERAGE-BANDWIDTH"].flatMap { Self.decimalInteger($0) }.map { Int($0) },
            resolution: resolution, codecs: attributes["CODECS"],
            frameRate: attributes["FRAME-RATE"].flatMap { Self.decimalFloat($0) },
            audioGroup: attributes.group("AUDIO"), videoGroup: attributes.group("VIDEO"),
            subtitlesGroup: attributes.group("SUBTITLES"), closedCaptionsGroup: attributes.group("CLOSED-CAPTIONS"))
    }

    mutating func makeMedia(_ attributes: HLSAttributeList, line: Int) throws -> AlternateMedia? {
        guard let typeText = attributes["TYPE"] else { throw failure(line, "#EXT-X-MEDIA has no TYPE") }
        guard let groupID = attributes["GROUP-ID"] else { throw failure(line, "#EXT-X-MEDIA has no GROUP-ID") }
        guard let name = attributes["NAME"] else { throw failure(line, "#EXT-X-MEDIA has no NAME") }
        guard let type = AlternateMedia.MediaType(rawValue: typeText) else {
            warn(line, "#EXT-X-MEDIA TYPE '\(typeText)' is unknown; entry ignored")
            return nil
        }
        var uri = attributes["URI"]
        var resolved: URL?
        if type == .closedCaptions {
            uri = nil
        } else if let given = uri {
            guard let url = resolver.resolve(given) else {
                throw failure(line, "#EXT-X-MEDIA URI '\(given)' is not a valid URL")
            }
            resolved = url
        }
        return AlternateMedia(
            type: type, groupID: groupID, name: name, language: attributes["LANGUAGE"],
            isDefault: attributes.bool("DEFAULT"), autoselect: attributes.bool("AUTOSELECT"),
            forced: attributes.bool("FORCED"), instreamID: attributes["INSTREAM-ID"], uri: uri, resolvedURL: resolved)
    }

    // MARK: Result

    mutating func finish() throws -> Manifest {
        if let pending = pendingStreamInf {
            throw failure(pending.line, "#EXT-X-STREAM-INF has no URI line after it")
        }
        if firstMasterTagLine != nil {
            for tag in mediaHeaderTags {
                warn(tag.line, "\(tag.name) is a media playlist tag; ignored in a master playlist")
            }
            warnings.drop(mediaHeaderTagsDropped)
            return .master(
                MasterPlaylist(
                    url: url, version: version, variants: variants, iFrameVariants: iFrameVariants, media: media,
                    independentSegments: independentSegments, start: start, warnings: sortedWarnings()))
        }
        if let pending = pendingDuration {
            warn(pending.line, "#EXTINF at the end of the playlist has no URI; ignored")
        }
        let longest = segments.reduce(0.0) { max($0, $1.duration) }
        let unknownDurations = segments.indices.filter { segments[$0].duration < 0 }
        let derivedTarget = WholeSeconds.from(longest, .toNearestOrAwayFromZero)
        var target = derivedTarget
        if let targetDuration {
            target = targetDuration
        } else if targetDurationLine == nil, !segments.isEmpty {
            warn(1, "no #EXT-X-TARGETDURATION; derived \(derivedTarget) from the longest segment")
        }
        for index in unknownDurations { segments[index].duration = Double(target) }
        if segments.isEmpty {
            warn(1, "the playlist has no segments")
        }
        fillProgramDateTimes()
        return .media(
            MediaPlaylist(
                url: url, version: version, targetDuration: target, mediaSequence: mediaSequence,
                discontinuitySequence: discontinuitySequence, endList: endList, playlistType: playlistType,
                start: start, iFramesOnly: iFramesOnly, independentSegments: independentSegments,
                partTargetDuration: partTargetDuration, skippedSegments: skippedSegments, segments: segments,
                warnings: sortedWarnings()))
    }

    /// Gives every segment a date once one has a tag: forward by adding durations, backward
    /// (before the first tag) by subtracting them.
    mutating func fillProgramDateTimes() {
        guard let firstTagged = taggedDates.keys.min() else { return }
        var index = firstTagged - 1
        while index >= 0 {
            let next = segments[index + 1].programDateTime!
            segments[index].programDateTime = next.addingTimeInterval(-segments[index].duration)
            index -= 1
        }
        for index in (firstTagged + 1)..<max(firstTagged + 1, segments.count) where taggedDates[index] == nil {
            let previous = segments[index - 1]
            segments[index].programDateTime = previous.programDateTime!.addingTimeInterval(previous.duration)
        }
    }

    func sortedWarnings() -> [ManifestWarning] {
        warnings.all(byLine: true)
    }

    // MARK: Values

    /// RFC 8216 decimal-integer: digits only, within Int64.
    static func decimalInteger(_ text: some StringProtocol) -> Int64? {
        let trimmed = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        var value: Int64 = 0
        var digits = 0
        var ended = false
        for byte in trimmed {
            if byte == 0x20 || byte == 0x09 {
                ended = true
                continue
            }
            guard !ended, byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// RFC 8216 decimal-floating-point (finite, no sign).
    static func decimalFloat(_ text: some StringProtocol) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.utf8.first, (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: ".") else {
            return nil
        }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// decimal-floating-point from bytes, without Foundation trimming on the hot path.
    static func decimalFloat(bytes: ArraySlice<UInt8>) -> Double? {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard start < end else { return nil }
        let first = bytes[start]
        guard (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: ".") else { return nil }
        guard let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)), value.isFinite else {
            return nil
        }
        return value
    }

    /// signed-decimal-floating-point.
    static func signedDecimalFloat(_ text: some StringProtocol) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("-") { return decimalFloat(trimmed.dropFirst()).map { -$0 } }
        return decimalFloat(trimmed)
    }

    static func parseResolution(_ text: String) -> Resolution? {
        let parts = text.split(separator: "x", maxSplits: 1)
        guard parts.count == 2, let width = decimalInteger(parts[0]), let height = decimalInteger(parts[1]),
            width > 0, height > 0, width <= Int64(Int32.max), height <= Int64(Int32.max)
        else { return nil }
        return Resolution(width: Int(width), height: Int(height))
    }

    /// `0x` + exactly 32 hex digits -> 16 bytes.
    static func parseIV(_ text: String) -> Data? {
        let bytes = Array(text.utf8)
        guard bytes.count == 34, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X")
        else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        var out = Data(capacity: 16)
        var index = 2
        while index < 34 {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
