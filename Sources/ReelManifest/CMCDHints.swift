import Foundation

/// What the requester of one resource knows about it, for Common Media Client Data (CTA-5004,
/// "CMCD"): the keys Media3, hls.js, Shaka and dash.js send so a CDN can tell a start from a
/// prefetch and see buffer, bitrate and throughput. Carried on the request's `DataSpec`; the
/// transfer engine adds what it knows itself (the session id, the measured throughput) and
/// writes them as `network.cmcd.*` says, or not at all.
public struct CMCDHints: Sendable, Hashable {
    /// `ot`: what the object is.
    public enum ObjectType: String, Sendable, Hashable {
        case manifest = "m", audio = "a", video = "v", muxed = "av", initSection = "i", caption = "c", timedText = "tt",
             key = "k", other = "o"
    }

    /// `sf`: the streaming format.
    public enum StreamingFormat: String, Sendable, Hashable {
        case dash = "d", hls = "h", other = "o"
    }

    /// `st`: video on demand or live.
    public enum StreamType: String, Sendable, Hashable {
        case vod = "v", live = "l"
    }

    /// `ot`; nil: from the request's kind (a playlist is a manifest, a segment muxed media).
    public var objectType: ObjectType?
    /// `cid`: the content (the video) the request is for.
    public var contentID: String?
    public var streamingFormat: StreamingFormat?
    public var streamType: StreamType?
    /// `br`: the encoded bitrate of the object's variant, in kbps.
    public var bitrateKbps: Int?
    /// `tb`: the top bitrate the player may choose, in kbps.
    public var topBitrateKbps: Int?
    /// `d`: the object's media duration, in milliseconds.
    public var durationMs: Int?
    /// `bl`: media buffered ahead of the playhead, in milliseconds.
    public var bufferMs: Int?
    /// `bs`: the buffer ran empty since the last request.
    public var starved = false
    /// `su`: the object is needed to start (or restart after a stall).
    public var startup = false
    /// `nor`: the next object the player will ask for, relative to this one.
    public var nextObject: String?
    /// The prefetch marker (`com.reel-prefetch`, its priority category): the request is a
    /// prefetch, not for a play.
    public var prefetch: String?

    public init(objectType: ObjectType? = nil, contentID: String? = nil, streamingFormat: StreamingFormat? = nil) {
        self.objectType = objectType
        self.contentID = contentID
        self.streamingFormat = streamingFormat
    }

    /// The content id for an input: its path when it fits CMCD's 64 characters, else its last
    /// 64 (the end names the video best).
    public static func contentID(for url: URL) -> String {
        let path = url.path.isEmpty ? url.absoluteString : url.path
        return path.count <= 64 ? path : String(path.suffix(64))
    }
}
