import Foundation
import ReelCore

/// What a stress run does: how many cards, how big a pool, how long, which seed and inputs.
public struct StressOptions: Sendable {
    /// Cards that mount, play, pause and unmount at once (one video card per widget). Two is a
    /// feed of shorts scrolling: the card playing and the next one, mounted ahead.
    public var widgets = 2
    /// Decoders in the pool.
    public var poolSize = 4
    /// FFmpeg threads per decoder.
    public var threads = 1
    public var duration: Duration = .seconds(60)
    public var seed: UInt64 = 42
    /// The videos cards pick from at random.
    public var inputs: [URL] = []
    public var player = PlayerOptions()
    /// How long a card stays mounted before it plays, plays before a pause, and rests paused;
    /// each drawn uniformly from its range (milliseconds).
    /// The defaults model a fast scroll: a card is on screen for a second or two.
    public var mountedMs: ClosedRange<Int> = 50...300
    public var playingMs: ClosedRange<Int> = 200...1500
    public var pausedMs: ClosedRange<Int> = 50...400
    /// Plays (each followed by a pause) per mount.
    public var playsPerMount: ClosedRange<Int> = 1...2
    /// The leak bound: RSS at the end may exceed RSS at the middle (the end of warm-up) by at
    /// most this fraction of it plus `leakSlackMB`, or the run fails.
    public var leakFraction = 0.10
    public var leakSlackMB = 8.0

    public init() {}

    /// The options the configuration describes: `decoder.poolSize` (`decoder.lowEndPoolSize` on a
    /// low-end device), `decoder.threads`, and the player's `decoder.*`, `device.*`, `playback.*`.
    public init(config: ReelConfig) {
        self.init()
        poolSize = config.device.isLowEnd ? config.decoder.lowEndPoolSize : config.decoder.poolSize
        threads = config.decoder.threads
        player = PlayerOptions(config: config)
    }
}
