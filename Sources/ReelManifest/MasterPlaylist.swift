import Foundation
import ReelCore

/// An HLS master (multivariant) playlist: the variants to choose from and their alternate
/// media groups. `renditions` is filled only by `ManifestLoader.loadDeep`.
public struct MasterPlaylist: Sendable, Hashable {
    public var url: URL
    public var version: Int?
    /// `EXT-X-STREAM-INF` entries in manifest order.
    public var variants: [Variant]
    /// `EXT-X-I-FRAME-STREAM-INF` entries in manifest order (trick play; never deep-loaded).
    public var iFrameVariants: [Variant]
    /// `EXT-X-MEDIA` entries in manifest order.
    public var media: [AlternateMedia]
    public var independentSegments: Bool
    public var start: MediaPlaylist.StartOffset?
    /// The loaded media playlists of the variants, then of the alternate media with a URI, in
    /// manifest order, each URL once. Empty until deep-loaded.
    public var renditions: [Rendition]
    public var warnings: [ManifestWarning]

    public init(
        url: URL, version: Int? = nil, variants: [Variant] = [], iFrameVariants: [Variant] = [],
        media: [AlternateMedia] = [], independentSegments: Bool = false, start: MediaPlaylist.StartOffset? = nil,
        renditions: [Rendition] = [], warnings: [ManifestWarning] = []
    ) {
        self.url = url
        self.version = version
        self.variants = variants
        self.iFrameVariants = iFrameVariants
        self.media = media
        self.independentSegments = independentSegments
        self.start = start
        self.renditions = renditions
        self.warnings = warnings
    }

    /// The alternate media of one group, in manifest order.
    public func media(type: AlternateMedia.MediaType, groupID: String) -> [AlternateMedia] {
        media.filter { $0.type == type && $0.groupID == groupID }
    }
}
