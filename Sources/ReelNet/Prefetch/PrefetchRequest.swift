import Foundation
import ReelCore

/// What to fetch ahead: the start of one video (its manifests, then the init section, key and
/// first `segments` segments of the variant playback will pick), with the priority to fetch it
/// at and a tag the caller recognises in events (the feed session passes its card id).
public struct PrefetchRequest: Sendable, Hashable {
    /// An http(s) URL of an HLS playlist, a DASH MPD or a media file.
    public var videoURL: URL
    public var category: PrefetchCategory
    /// Order inside the category: lower first (nearer the viewport).
    public var rank: Int
    /// Segments to fetch; nil takes the category's default (`PrefetchCategory.segments`).
    public var segments: Int?
    /// Milliseconds of media to fetch (the segments covering them) instead of `segments`.
    public var mediaMs: Int?
    /// Handed back in every event about this request.
    public var tag: String?

    public init(videoURL: URL, category: PrefetchCategory = .imminent, rank: Int = 0, segments: Int? = nil,
                mediaMs: Int? = nil, tag: String? = nil) {
        self.videoURL = videoURL
        self.category = category
        self.rank = rank
        self.segments = segments
        self.mediaMs = mediaMs
        self.tag = tag
    }

    /// What the request fetches after the manifests, `defaultSegments` when it says nothing.
    func amount(defaultSegments: Int) -> PrefetchAmount {
        if let mediaMs { return .media(ms: mediaMs) }
        return .segments(segments ?? defaultSegments)
    }
}
