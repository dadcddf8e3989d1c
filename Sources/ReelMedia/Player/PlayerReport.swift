import ReelNet

/// What one player did from mount to unmount, returned by `Player.stop()`.
public struct PlayerReport: Sendable, Codable {
    public var card: String
    public var url: String
    /// Frames handed to the renderer.
    public var frames: Int
    /// Time to first frame from the play request it answers, when a frame came.
    public var ttff: TTFFBreakdown?
    /// Frames that reached the renderer after their due time, and the time the picture froze.
    public var stalls: Int
    public var stallMs: Double
    /// Times the player ran out of demuxed media while playing, and the time it waited.
    public var rebuffers: Int
    public var rebufferMs: Double
    public var late: Int
    public var dropped: Int
    public var preemptions: Int
    public var ended: Bool
    public var previewElapsed: Bool
    public var decodeErrors: Int
    public var corruptPackets: Int
    /// Why the player failed, if it did.
    public var error: String?
    /// Non-fatal problems met on the way.
    public var notes: [String]
    public var requests: Int
    public var bytes: Int64
    /// Media time played, from the first frame shown to the last.
    public var playedSeconds: Double = 0
    /// The variant of each segment and the switches, for a master or an MPD.
    public var abr: ABRReport?
}

extension PlayerReport {
    /// A report of nothing done yet, for `card` playing `url`.
    package init(card: String, url: String) {
        self.init(card: card, url: url, frames: 0, ttff: nil, stalls: 0, stallMs: 0, rebuffers: 0, rebufferMs: 0, late: 0,
                  dropped: 0, preemptions: 0, ended: false, previewElapsed: false, decodeErrors: 0, corruptPackets: 0,
                  error: nil, notes: [], requests: 0, bytes: 0)
    }
}
