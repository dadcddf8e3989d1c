import ReelCore

/// A player's sound for a speaker (`PlayerOptions.sound`): its decoded PCM, where the picture
/// stands, and whether it plays, read from any thread without waiting. A speaker keeps its sound
/// with `playhead` (`SoundSync`) and reads it with `read(from:maxFrames:)`.
public final class PlayerSound: Sendable {
    public let format: SoundFormat
    let buffer: SoundBuffer
    private let source = Locked<Source?>(nil)

    /// What the player lends once it has opened: its renderer's playhead and its state.
    struct Source: Sendable {
        var playhead: @Sendable () -> Double?
        var playing: @Sendable () -> Bool
    }

    init(_ options: SoundOptions) {
        format = options.format
        buffer = SoundBuffer(options)
    }

    func attach(_ source: Source) { self.source.withLock { $0 = source } }

    /// The media time (seconds, the stream's clock) of the picture showing now; nil before the
    /// first frame.
    public var playhead: Double? { source.withLock { $0 }?.playhead() }

    /// Whether the picture moves: the player plays and is not stalled or paused.
    public var isPlaying: Bool { source.withLock { $0 }?.playing() ?? false }

    /// Up to `maxFrames` frames of sound from media time `time` on (what lies before it is
    /// dropped); nil when none is decoded there yet (the input has no sound, or not that far).
    public func read(from time: Double, maxFrames: Int) -> SoundChunk? {
        buffer.read(from: time, maxFrames: maxFrames)
    }

    /// Frames decoded so far, and frames dropped unheard past the buffer's capacity.
    public var decodedFrames: Int { buffer.counts.decoded }
    public var droppedFrames: Int { buffer.counts.dropped }
}
