/// The PCM a player decodes sound to, for a speaker: signed 16-bit samples, interleaved, in the
/// machine's byte order, at `sampleRate` with `channels` channels.
public struct SoundFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int = 48_000, channels: Int = 2) {
        self.sampleRate = max(8_000, min(sampleRate, 192_000))
        self.channels = max(1, min(channels, 8))
    }

    /// Seconds of `frames` frames (a frame is one sample per channel).
    public func seconds(frames: Int) -> Double { Double(frames) / Double(sampleRate) }

    /// Whole frames in `seconds` (none for a negative time).
    public func frames(seconds: Double) -> Int { seconds > 0 ? Int((seconds * Double(sampleRate)).rounded()) : 0 }

    public var description: String { "s16 \(sampleRate) Hz, \(channels) channel\(channels == 1 ? "" : "s")" }
}

/// Whether and how a player decodes its sound (`PlayerOptions.sound`).
public struct SoundOptions: Sendable, Hashable {
    public var format: SoundFormat
    /// The most decoded sound a player holds (the oldest goes past it): bounded memory whether or
    /// not anyone listens. It should exceed the read-ahead (`playback.maxBufferMs`).
    public var capacity: Duration

    public init(format: SoundFormat = SoundFormat(), capacity: Duration = .seconds(6)) {
        self.format = format
        self.capacity = max(capacity, .milliseconds(100))
    }
}

/// Decoded sound: interleaved samples in the player's `SoundFormat`, and the media time of the
/// first (seconds, on the stream's own clock, the one `PlayerSound.playhead` reads).
public struct SoundChunk: Sendable, Equatable {
    public var time: Double
    public var samples: [Int16]

    public init(time: Double, samples: [Int16]) {
        self.time = time
        self.samples = samples
    }

    /// Frames in it, for `channels` channels.
    public func frames(channels: Int) -> Int { samples.count / max(1, channels) }
}
