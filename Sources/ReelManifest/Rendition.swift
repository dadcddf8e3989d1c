import Foundation
import ReelCore

/// One playable stream with its segments: a loaded HLS media playlist (a variant's or an
/// alternate track's) or one DASH Representation with its segments across all periods.
public struct Rendition: Sendable, Hashable {
    /// What the stream carries.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case video, audio, text
    }

    /// HLS: the URI as written in the master (the playlist URL for a top-level media playlist).
    /// DASH: `Representation@id`; two renditions share an id only when they differ by language.
    public var id: String
    public var type: Kind
    /// HLS: the media playlist URL. DASH: the representation's resolved BaseURL.
    public var url: URL
    public var bandwidth: Int?
    public var codecs: String?
    public var resolution: Resolution?
    public var frameRate: Double?
    public var language: String?
    public var mimeType: String?
    /// True when a DASH AdaptationSet or Representation declares `ContentProtection` (DRM that
    /// Reel does not decrypt).
    public var contentProtected: Bool
    /// The segments and playlist facts (for DASH, built from the MPD).
    public var playlist: MediaPlaylist

    public init(
        id: String, type: Kind, url: URL, bandwidth: Int? = nil, codecs: String? = nil, resolution: Resolution? = nil,
        frameRate: Double? = nil, language: String? = nil, mimeType: String? = nil, contentProtected: Bool = false,
        playlist: MediaPlaylist
    ) {
        self.id = id
        self.type = type
        self.url = url
        self.bandwidth = bandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.frameRate = frameRate
        self.language = language
        self.mimeType = mimeType
        self.contentProtected = contentProtected
        self.playlist = playlist
    }

    public var segments: [Segment] { playlist.segments }

    /// The init section of the first segment (the one a player fetches before anything else).
    public var initSection: InitSection? { playlist.segments.first?.initSection }

    /// This rendition as a selectable variant (uri = id, resolvedURL = url).
    public var asVariant: Variant {
        Variant(
            uri: id, resolvedURL: url, bandwidth: bandwidth ?? 0, resolution: resolution, codecs: codecs,
            frameRate: frameRate)
    }
}

extension Rendition {
    /// A top-level HLS media playlist as a rendition: id is its URL; the type is guessed from
    /// the first segment's extension (`.vtt`/`.webvtt` text, `.aac`/`.mp3`/`.ac3`/`.ec3` audio,
    /// else video).
    static func topLevel(_ media: MediaPlaylist) -> Rendition {
        Rendition(id: media.url.absoluteString, type: guessKind(media), url: media.url, playlist: media)
    }

    static func guessKind(_ media: MediaPlaylist) -> Kind {
        guard let first = media.segments.first else { return .video }
        switch first.resolvedURL.pathExtension.lowercased() {
        case "vtt", "webvtt", "srt", "ttml": return .text
        case "aac", "mp3", "ac3", "ec3", "m4a": return .audio
        default: return .video
        }
    }
}
