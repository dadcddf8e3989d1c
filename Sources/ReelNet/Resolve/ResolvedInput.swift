import Foundation
import ReelManifest

/// What playback hands the demuxer after Reel has looked at the input itself: either a media
/// playlist (the chosen variant's, or an HLS view of the chosen DASH representation), or a media
/// stream already open.
public struct ResolvedInput {
    public enum Content {
        /// Playlist text for FFmpeg's demuxer of that name ("hls").
        case playlist(bytes: [UInt8], demuxer: String)
        /// A media file or stream, open, its sniffed first bytes replayed first.
        case media(any DataSource, length: Int64?)
    }

    /// The URL the demuxer is told (relative references resolve against it).
    public var url: URL
    public var content: Content
    /// The chosen variant's media playlist URL (DASH: the representation's URL), or nil when
    /// there was no choice to make.
    public var variant: URL?
    /// The chosen DASH representation's id.
    public var rendition: String?
    /// What each URL the demuxer will open is (segment, init section, key, playlist).
    public var kinds: [String: ResourceKind] = [:]
    /// Playlists Reel wrote itself, by the URL the demuxer will ask for, served from memory.
    public var virtualResources: [String: [UInt8]] = [:]
    /// Reel's own model of the media playlist being played.
    public var playlist: MediaPlaylist?
    /// The separate audio rendition handed to the demuxer with it (DASH), if any.
    public var audioPlaylist: MediaPlaylist?
    /// With a separate audio rendition: the names of the video's and the audio's playlists in
    /// `virtualResources`, so a player can open the video alone and the audio after its first
    /// frame (`MediaOpener`'s `deferAudio`).
    public var videoPlaylistURL: String?
    public var audioPlaylistURL: String?
    /// The chosen variant's bitrate and the master's top one, in kbps (CMCD's `br` and `tb`).
    public var bitrateKbps: Int?
    public var topBitrateKbps: Int?
    /// Set when the input was resolved from the cache alone (offline playback).
    public var offline: OfflineSelection?
    /// The variant choice of a master or MPD, segment by segment: it records which variant each
    /// segment came from and, when the play can switch, chooses it (`ABRController`).
    public var adaptive: ABRController?

    public init(url: URL, content: Content, variant: URL? = nil) {
        self.url = url
        self.content = content
        self.variant = variant
    }
}
