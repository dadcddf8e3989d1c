import Foundation
import ReelManifest

/// What offline playback plays of an input: the variant pinned to one whose start is cached and
/// how many of its segments, from the first, are cached (init sections and keys included).
public struct OfflineSelection: Sendable, Hashable {
    /// The media playlist played (the chosen variant's, the DASH representation's, or the input).
    public var playlist: URL
    /// Segments from the start that are cached and played.
    public var cachedSegments: Int
    /// Segments the playlist lists.
    public var totalSegments: Int

    public init(playlist: URL, cachedSegments: Int, totalSegments: Int) {
        self.playlist = playlist
        self.cachedSegments = cachedSegments
        self.totalSegments = totalSegments
    }

    /// `playlist` cut to its cached run and finished (`ENDLIST`), MAP, BYTERANGE and KEY kept.
    static func truncated(_ playlist: MediaPlaylist, to count: Int) -> MediaPlaylist {
        var cut = playlist
        cut.segments = Array(playlist.segments.prefix(count))
        cut.endList = true
        cut.playlistType = .vod
        return cut
    }
}
