import ReelCore

/// When a player's demuxer reads ahead and when it rests, and when a player that ran dry may go
/// on: a small load control (ExoPlayer's `DefaultLoadControl` in miniature) fed its parameters.
///
/// The demuxer reads until `maxBuffer` of media waits ahead of the renderer (the high watermark),
/// rests until the buffer falls below `minBuffer` (the low watermark), and never queues more than
/// `maxPackets` packets whatever their timestamps say. Until its first play a mounted player reads
/// only `preparedBuffer` (when set): enough for its first frame and a start, without paying for a
/// video the user may scroll past. A player that ran out of media while
/// playing waits for `rebuffer` of it (or the end) before it goes on, so it does not flap; or,
/// with `fastResume`, for that much only while media arrives clearly faster than it plays (it
/// would not run dry again soon: a start shows its first frame with one frame in hand, and
/// waiting a whole `rebuffer` after the next frame comes late turned a hiccup into half a second).
public struct BufferPolicy: Sendable, Hashable {
    public var maxBuffer: Duration
    public var minBuffer: Duration
    public var rebuffer: Duration
    public var maxPackets: Int
    /// The high watermark before the first play; nil reads to `maxBuffer` from the start.
    public var preparedBuffer: Duration?
    /// Media enough to go on after running dry while media arrives at least `fastResumeRate`
    /// times as fast as it plays; nil: only `rebuffer`.
    public var fastResume: Duration?
    /// Media seconds arrived per second of a stall that let a player go on at `fastResume`.
    public var fastResumeRate: Double

    public init(maxBuffer: Duration = .seconds(3), minBuffer: Duration = .milliseconds(1500),
                rebuffer: Duration = .seconds(1), maxPackets: Int = 1024, preparedBuffer: Duration? = nil,
                fastResume: Duration? = nil, fastResumeRate: Double = 1.5) {
        let rebuffer = min(rebuffer, maxBuffer)
        self.maxBuffer = maxBuffer
        self.minBuffer = min(minBuffer, maxBuffer)
        self.rebuffer = rebuffer
        self.maxPackets = max(1, maxPackets)
        self.preparedBuffer = preparedBuffer.map { min($0, maxBuffer) }
        self.fastResumeRate = max(1, fastResumeRate)
        self.fastResume = fastResume.map { min($0, rebuffer) }
    }

    /// The policy the `playback.*` keys describe: `maxBufferMs`, `minBufferMs`,
    /// `bufferWatermarkMs` (needed to go on after running dry), `maxBufferPackets`,
    /// `preparedBufferMs` (0: none), `fastResumeMs` (0: none) and `fastResumeRate`.
    public init(_ settings: PlaybackSettings) {
        self.init(maxBuffer: .milliseconds(settings.maxBufferMs), minBuffer: .milliseconds(settings.minBufferMs),
                  rebuffer: .milliseconds(settings.bufferWatermarkMs), maxPackets: settings.maxBufferPackets,
                  preparedBuffer: settings.preparedBufferMs > 0 ? .milliseconds(settings.preparedBufferMs) : nil,
                  fastResume: settings.fastResumeMs > 0 ? .milliseconds(settings.fastResumeMs) : nil,
                  fastResumeRate: settings.fastResumeRate)
    }

    /// Whether the demuxer should read another packet with `buffered` media in `packets` packets
    /// queued; `wasReading` is what it did last (reading goes on to the high watermark, resting
    /// goes on to the low one); `prepared`: the player has not played yet.
    public func shouldRead(buffered: Duration, packets: Int, wasReading: Bool, prepared: Bool = false) -> Bool {
        if prepared, let preparedBuffer, buffered >= preparedBuffer { return false }
        if packets >= maxPackets || buffered >= maxBuffer { return false }
        return wasReading || buffered < minBuffer
    }

    /// Whether a player that ran dry may go on, with `buffered` media in `packets` packets, of
    /// which `gained` arrived during the `stalled` time since it ran dry.
    public func mayResumeAfterStall(buffered: Duration, packets: Int, ended: Bool,
                                    stalled: Duration = .zero, gained: Duration = .zero) -> Bool {
        if ended || buffered >= rebuffer || packets >= maxPackets { return true }
        guard let fastResume, buffered >= fastResume, stalled > .zero else { return false }
        return gained / stalled >= fastResumeRate
    }
}
