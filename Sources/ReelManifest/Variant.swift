import Foundation
import ReelCore

/// One entry of an HLS master playlist (`EXT-X-STREAM-INF` or `EXT-X-I-FRAME-STREAM-INF`): a
/// media playlist at one bitrate, with what it needs from the alternate media groups.
public struct Variant: Sendable, Hashable {
    /// The URI as written (for a DASH video representation: its `@id`).
    public var uri: String
    /// `uri` resolved against the master URL (for DASH: the representation's BaseURL).
    public var resolvedURL: URL
    /// Peak bits per second (`BANDWIDTH`); the value `VariantSelector` ranks by.
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var resolution: Resolution?
    public var codecs: String?
    public var frameRate: Double?
    /// `AUDIO` group id.
    public var audioGroup: String?
    /// `VIDEO` group id.
    public var videoGroup: String?
    /// `SUBTITLES` group id.
    public var subtitlesGroup: String?
    /// `CLOSED-CAPTIONS` group id (nil for `NONE` or absent).
    public var closedCaptionsGroup: String?

    public init(
        uri: String, resolvedURL: URL, bandwidth: Int, averageBandwidth: Int? = nil, resolution: Resolution? = nil,
        codecs: String? = nil, frameRate: Double? = nil, audioGroup: String? = nil, videoGroup: String? = nil,
        subtitlesGroup: String? = nil, closedCaptionsGroup: String? = nil
    ) {
        self.uri = uri
        self.resolvedURL = resolvedURL
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.resolution = resolution
        self.codecs = codecs
        self.frameRate = frameRate
        self.audioGroup = audioGroup
        self.videoGroup = videoGroup
        self.subtitlesGroup = subtitlesGroup
        self.closedCaptionsGroup = closedCaptionsGroup
    }

    /// What to fetch to load this variant's media playlist.
    public var dataSpec: DataSpec { DataSpec(url: resolvedURL, kind: .playlist) }
}
