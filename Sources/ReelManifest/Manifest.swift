import Foundation
import ReelCore

/// What a top-level URL turned out to be: an HLS master playlist, an HLS media playlist, or a
/// DASH MPD.
public enum Manifest: Sendable, Hashable {
    case master(MasterPlaylist)
    case media(MediaPlaylist)
    case dash(DASHManifest)

    public var url: URL {
        switch self {
        case .master(let master): master.url
        case .media(let media): media.url
        case .dash(let dash): dash.url
        }
    }

    /// Streams with segments: the one media playlist; a master's deep-loaded renditions (empty
    /// unless loaded with `ManifestLoader.loadDeep`); every DASH representation.
    public var renditions: [Rendition] {
        switch self {
        case .master(let master): master.renditions
        case .media(let media): [Rendition.topLevel(media)]
        case .dash(let dash): dash.renditions
        }
    }

    /// What `VariantSelector` chooses among: a master's variants; a DASH MPD's video renditions
    /// (as `Rendition.asVariant`); none for a media playlist.
    public var variants: [Variant] {
        switch self {
        case .master(let master): master.variants
        case .media: []
        case .dash(let dash): dash.videoRenditions.map(\.asVariant)
        }
    }

    public var warnings: [ManifestWarning] {
        switch self {
        case .master(let master): master.warnings
        case .media(let media): media.warnings
        case .dash(let dash): dash.warnings
        }
    }
}
