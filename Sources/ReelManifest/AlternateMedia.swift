import Foundation
import ReelCore

/// One HLS `EXT-X-MEDIA` entry: an alternate audio, video, subtitle or caption track in a group
/// that variants refer to by `GROUP-ID`.
public struct AlternateMedia: Sendable, Hashable {
    /// `TYPE`.
    public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
        case audio = "AUDIO"
        case video = "VIDEO"
        case subtitles = "SUBTITLES"
        case closedCaptions = "CLOSED-CAPTIONS"
    }

    public var type: MediaType
    public var groupID: String
    public var name: String
    public var language: String?
    public var isDefault: Bool
    public var autoselect: Bool
    public var forced: Bool
    /// `INSTREAM-ID` of closed captions (`CC1`, `SERVICE1`, ...).
    public var instreamID: String?
    /// The media playlist URI as written; nil when the track is in the variant's own stream.
    public var uri: String?
    public var resolvedURL: URL?

    public init(
        type: MediaType, groupID: String, name: String, language: String? = nil, isDefault: Bool = false,
        autoselect: Bool = false, forced: Bool = false, instreamID: String? = nil, uri: String? = nil,
        resolvedURL: URL? = nil
    ) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.forced = forced
        self.instreamID = instreamID
        self.uri = uri
        self.resolvedURL = resolvedURL
    }
}
