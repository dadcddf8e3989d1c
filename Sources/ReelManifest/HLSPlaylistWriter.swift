import Foundation
import ReelCore

/// Renders a media playlist (an HLS one, or a DASH rendition's) as HLS text with absolute URIs,
/// for FFmpeg 5.1's HLS demuxer: offline playback feeds it the longest cached run of segments.
/// Byte ranges always carry explicit offsets; `EXT-X-KEY` and `EXT-X-MAP` are written where
/// they change (a map's own key first, so a re-parse gives each section the same key).
public struct HLSPlaylistWriter: Sendable {
    public init() {}

    /// The text of `playlist`, or of its first `segmentCount` segments. With `endList`, the
    /// playlist is marked `VOD` and ends with `EXT-X-ENDLIST` (FFmpeg then plays it as a finished
    /// stream instead of reloading it).
    public func render(_ playlist: MediaPlaylist, segmentCount: Int? = nil, endList: Bool = true) -> String {
        let segments = playlist.segments.prefix(max(0, segmentCount ?? playlist.segments.count))
        let hasRanges = segments.contains { $0.byteRange != nil || $0.initSection?.byteRange != nil }
        let hasMap = segments.contains { $0.initSection != nil }
        let hasKeyFormat = segments.contains { $0.key?.keyFormat != nil || $0.initSection?.key?.keyFormat != nil }
        let version = hasMap ? 6 : hasKeyFormat ? 5 : hasRanges ? 4 : 3
        let longest = segments.reduce(0.0) { max($0, $1.duration) }
        let target = max(1, playlist.targetDuration, WholeSeconds.from(longest, .toNearestOrAwayFromZero))

        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(version)", "#EXT-X-TARGETDURATION:\(target)"]
        lines.append("#EXT-X-MEDIA-SEQUENCE:\(segments.first?.sequenceNumber ?? playlist.mediaSequence)")
        if playlist.discontinuitySequence != 0 {
            lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(playlist.discontinuitySequence)")
        }
        if endList {
            lines.append("#EXT-X-PLAYLIST-TYPE:VOD")
        } else if playlist.playlistType == .event {
            lines.append("#EXT-X-PLAYLIST-TYPE:EVENT")
        }
        if playlist.iFramesOnly { lines.append("#EXT-X-I-FRAMES-ONLY") }
        if playlist.independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }

        var currentKey: Key?
        var currentMap: InitSection?
        for segment in segments {
            if segment.discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            if let map = segment.initSection, map != currentMap {
                if map.key != currentKey {
                    lines.append(Self.keyLine(map.key))
                    currentKey = map.key
                }
                lines.append(Self.mapLine(map))
                currentMap = map
            }
            if segment.key != currentKey {
                lines.append(Self.keyLine(segment.key))
                currentKey = segment.key
            }
            lines.append("#EXTINF:\(Self.decimal(segment.duration)),")
            if let range = segment.byteRange { lines.append("#EXT-X-BYTERANGE:\(range.length)@\(range.offset)") }
            lines.append(segment.resolvedString)
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text of a DASH (or deep-loaded HLS) rendition's segments.
    public func render(_ rendition: Rendition, segmentCount: Int? = nil, endList: Bool = true) -> String {
        render(rendition.playlist, segmentCount: segmentCount, endList: endList)
    }

    /// How many segments from the start are playable offline: the longest run whose segment,
    /// init section and key bytes `isCached` reports present.
    public static func cachedPrefixLength(of playlist: MediaPlaylist, isCached: (DataSpec) -> Bool) -> Int {
        var checked: Set<String> = []
        func present(_ spec: DataSpec) -> Bool {
            if checked.contains(spec.cacheKey) { return true }
            guard isCached(spec) else { return false }
            checked.insert(spec.cacheKey)
            return true
        }
        for (index, segment) in playlist.segments.enumerated() {
            if let map = segment.initSection {
                guard present(map.dataSpec) else { return index }
                if let key = map.key, !present(key.dataSpec) { return index }
            }
            if let key = segment.key, !present(key.dataSpec) { return index }
            guard present(segment.dataSpec) else { return index }
        }
        return playlist.segments.count
    }

    static func keyLine(_ key: Key?) -> String {
        guard let key else { return "#EXT-X-KEY:METHOD=NONE" }
        var line = "#EXT-X-KEY:METHOD=\(key.method),URI=\"\(key.resolvedURL.absoluteString)\""
        if let iv = key.iv { line += ",IV=\(Key.hexString(iv))" }
        if let format = key.keyFormat { line += ",KEYFORMAT=\"\(format)\"" }
        return line
    }

    static func mapLine(_ map: InitSection) -> String {
        var line = "#EXT-X-MAP:URI=\"\(map.resolvedURL.absoluteString)\""
        if let range = map.byteRange { line += ",BYTERANGE=\"\(range.length)@\(range.offset)\"" }
        return line
    }

    /// The shortest decimal that reads back as the same Double, never in exponent form.
    static func decimal(_ value: Double) -> String {
        let text = "\(value)"
        if !text.contains("e") && !text.contains("E") { return text }
        var fixed = String(format: "%.9f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed += "0" }
        return fixed
    }
}
