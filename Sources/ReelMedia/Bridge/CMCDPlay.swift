import ReelCore
import ReelManifest

/// What a play says of its requests in Common Media Client Data (`network.cmcd.*`): the content
/// it plays, and at each request where it stands (`status`: the media buffered ahead, whether it
/// ran dry since the last request, whether it is still starting). The input bridge asks it at
/// every open the demuxer makes.
public final class CMCDPlay: Sendable {
    /// Where a play stands when it makes a request.
    public struct Status: Sendable, Hashable {
        public var bufferMs: Int?
        /// Stalls so far (a stall since the last request is CMCD's buffer starvation).
        public var stalls: Int
        /// No frame shown yet, or playing again after a stall: the request is needed to start.
        public var startup: Bool

        public init(bufferMs: Int? = nil, stalls: Int = 0, startup: Bool = true) {
            self.bufferMs = bufferMs
            self.stalls = stalls
            self.startup = startup
        }
    }

    public let contentID: String
    private let status: @Sendable () -> Status
    /// Stalls at the last request.
    private let reported = Locked(0)

    /// A play of `contentID` whose status `status` tells (called on the demuxer's thread).
    public init(contentID: String, status: @escaping @Sendable () -> Status) {
        self.contentID = contentID
        self.status = status
    }

    /// The hints of a request made now: the content, the buffer, starvation since the last one,
    /// startup.
    func hints(_ base: CMCDHints?) -> CMCDHints {
        let now = status()
        let starved = reported.withLock { last -> Bool in
            defer { last = now.stalls }
            return now.stalls > last
        }
        var hints = base ?? CMCDHints()
        hints.contentID = contentID
        hints.bufferMs = now.bufferMs
        hints.starved = starved
        hints.startup = now.startup
        return hints
    }

    /// The hints for the manifests the play resolves (the content, startup).
    var manifestHints: CMCDHints {
        var hints = CMCDHints(contentID: contentID)
        hints.startup = status().startup
        return hints
    }
}
