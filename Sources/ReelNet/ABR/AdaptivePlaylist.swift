import Foundation
import ReelManifest

/// The media playlist FFmpeg reads for a play that may switch variants: the start variant's
/// segments with their durations, each URI replaced by a name Reel owns
/// (`<master>#reel-abr-<k>.<the segment's extension>`: FFmpeg checks a segment's detected format
/// against the extension its URL ends with)
/// that the input bridge maps, when FFmpeg opens it, to segment k of the variant the adaptive
/// rule chose. A VOD playlist: FFmpeg's HLS demuxer opens its segments one after another and
/// never reloads it. It ignores `EXT-X-DISCONTINUITY` (FFmpeg 5.1 keeps no such flag), so none
/// is written: MPEG-TS carries H.264's parameter sets in band, and the decoder picks up a new
/// picture size at the switch's key frame; the variants of one master share their timestamps.
public enum AdaptivePlaylist {
    /// The name of segment `index` of an adaptive play of `master`, ending like `segment`'s URL.
    public static func virtualURL(master: URL, segment index: Int, like segment: URL) -> String {
        let ext = segment.pathExtension.isEmpty ? "ts" : segment.pathExtension
        return InputResolver.virtualURL(master, "abr-\(index).\(ext)")
    }

    /// The playlist text: `playlist`'s segments (and durations) under their Reel-owned names.
    public static func render(_ playlist: MediaPlaylist, master: URL) -> String {
        var virtual = playlist
        virtual.segments = playlist.segments.enumerated().map { index, segment in
            var renamed = segment
            renamed.resolvedURL = URL(string: virtualURL(master: master, segment: index, like: segment.resolvedURL)) ?? segment.resolvedURL
            renamed.uri = renamed.resolvedURL.absoluteString
            renamed.byteRange = nil
            renamed.discontinuity = false
            return renamed
        }
        return HLSPlaylistWriter().render(virtual, endList: true)
    }

    /// Why a variant's playlist cannot take part in switching (nil when it can): it must be a
    /// finished playlist of plain segments (no keys, no init sections: each variant's init
    /// section would be a new `moov` FFmpeg's MP4 demuxer skips), non-empty.
    public static func unswitchable(_ playlist: MediaPlaylist) -> String? {
        if playlist.isLive { return "it is live" }
        if playlist.segments.isEmpty { return "it has no segments" }
        if playlist.segments.contains(where: { $0.key != nil }) { return "its segments are encrypted" }
        if playlist.segments.contains(where: { $0.initSection != nil }) { return "its segments need an init section (fMP4)" }
        return nil
    }

    /// Why `other`'s segments do not line up with `played`'s (nil when they do): the same count,
    /// and every segment starting within `tolerance` seconds of its twin.
    public static func misalignment(of other: MediaPlaylist, with played: MediaPlaylist, tolerance: Double = 0.25) -> String? {
        if let reason = unswitchable(other) { return reason }
        guard other.segments.count == played.segments.count else {
            return "it has \(other.segments.count) segments, not \(played.segments.count)"
        }
        var start = 0.0, otherStart = 0.0
        for (index, (segment, twin)) in zip(played.segments, other.segments).enumerated() {
            if abs(start - otherStart) > tolerance {
                return "its segment \(index) starts at \(otherStart) s, not \(start) s"
            }
            start += segment.duration
            otherStart += twin.duration
        }
        return nil
    }
}
