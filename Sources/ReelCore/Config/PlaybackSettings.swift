/// `playback.*`: how many videos may play at once and for how long.
public struct PlaybackSettings: ConfigSection {
    /// `playback.short.*`.
    public struct Short: ConfigSection {
        @Setting("Shorts playing at once at most.", .range(0...16))
        public var maxSimultaneous = 1

        public init() {}
    }

    /// `playback.carousel.*`.
    public struct Carousel: ConfigSection {
        @Setting("Cards of one carousel playing at once at most.", .range(0...16))
        public var maxSimultaneous = 3

        public init() {}
    }

    /// `playback.merch.*`.
    public struct Merch: ConfigSection {
        @Setting("Merch cards playing at once at most (merch cards show images).", .range(0...16))
        public var maxSimultaneous = 0

        public init() {}
    }

    /// `playback.previewSeconds.*`.
    public struct PreviewSeconds: ConfigSection {
        @Setting("Seconds a short plays before it counts as watched; 0 means the whole video.", .atLeast(0.0))
        public var short = 0.0

        @Setting("Seconds a carousel card plays before play moves on; 0 means the whole video.", .atLeast(0.0))
        public var carousel = 5.0

        public init() {}
    }

    public var short = Short()
    public var carousel = Carousel()
    public var merch = Merch()
    public var previewSeconds = PreviewSeconds()

    @Setting("Buffered media needed before play starts or resumes, in milliseconds.", .range(0...60_000))
    public var bufferWatermarkMs = 1000

    @Setting("A player that ran dry goes on with this much media, in milliseconds, while media arrives at least fastResumeRate times as fast as it plays (else it waits for bufferWatermarkMs); 0 always waits for bufferWatermarkMs.", .range(0...60_000))
    public var fastResumeMs = 500

    @Setting("Media seconds arrived per second of a stall that let a player go on at fastResumeMs.", .range(1.0...100.0))
    public var fastResumeRate = 1.5

    @Setting("A user's play on a video that already ended starts it again from the beginning; false ignores the tap.")
    public var userPlayReplaysEnded = true

    @Setting("Media a player demuxes ahead of its renderer at most, in milliseconds; reading rests there (the high watermark).", .range(100...600_000))
    public var maxBufferMs = 3000

    @Setting("A resting demuxer reads again once buffered media falls below this, in milliseconds (the low watermark; at most maxBufferMs).", .range(0...600_000))
    public var minBufferMs = 1500

    @Setting("Media a mounted player that has not played yet demuxes ahead, in milliseconds (the high watermark until its first play); 0 uses maxBufferMs.", .range(0...600_000))
    public var preparedBufferMs = 1000

    @Setting("Packets a player queues ahead of its decoder at most, whatever their timestamps say.", .range(1...100_000))
    public var maxBufferPackets = 1024

    @Setting("A mounted player decodes its first frame ahead and holds it, so a play hands it to the renderer at once.")
    public var prerollFirstFrame = true

    public init() {}

    /// The `maxSimultaneous` of a widget type's section.
    public func maxSimultaneous(for type: WidgetType) -> Int {
        switch type {
        case .short: short.maxSimultaneous
        case .carousel: carousel.maxSimultaneous
        case .merch: merch.maxSimultaneous
        }
    }
}
