/// Keeps a speaker's sound with the picture, as a player's audio clock would if the picture were
/// the master: each time the speaker's queue is topped up, says what to queue so that the sound
/// heard matches the picture shown, within `tolerance`. Sound that fell behind (a speaker late to
/// start, a picture that jumped) is skipped; sound ahead (the picture stalled while the speaker
/// played on) is held back with silence. Pure: times in, a plan out.
public struct SoundSync: Sendable, Equatable {
    public let format: SoundFormat
    /// How far the sound may drift from the picture before it is put right, seconds.
    public var tolerance: Double
    /// How much sound to keep queued ahead of the speaker, seconds: enough to ride over a slow
    /// frame of the caller's loop.
    public var lead: Double
    /// The media time of the next sample to queue; nil until the first plan (or after `reset`).
    public private(set) var next: Double?
    /// Times the sound was moved to the picture (a start counts) or held back.
    public private(set) var skips = 0
    public private(set) var holds = 0

    /// What to queue now: `silence` frames first, then up to `frames` frames of sound from
    /// media time `from` on.
    public struct Plan: Sendable, Equatable {
        public var silence: Int
        public var from: Double
        public var frames: Int
    }

    public init(format: SoundFormat, tolerance: Double = 0.1, lead: Double = 0.12) {
        self.format = format
        self.tolerance = tolerance
        self.lead = lead
    }

    /// The plan for a picture at media time `playhead` with `queued` seconds already waiting in
    /// the speaker (what is queued now is heard after them).
    public mutating func plan(playhead: Double, queued: Double) -> Plan {
        let due = playhead + queued
        var silence = 0
        if let next, next > due + tolerance {
            // Ahead of the picture: hold the sound back.
            silence = format.frames(seconds: next - due)
            holds += 1
        } else if next.map({ $0 < due - tolerance }) ?? true {
            // Behind the picture, or starting: go to where the picture is.
            next = due
            skips += 1
        }
        let room = lead - queued - format.seconds(frames: silence)
        return Plan(silence: silence, from: next ?? due, frames: format.frames(seconds: room))
    }

    /// What was queued after a plan: the sound read (nil when none was decoded yet) goes on
    /// from where it ended.
    public mutating func queued(_ chunk: SoundChunk?) {
        guard let chunk else { return }
        next = chunk.time + format.seconds(frames: chunk.frames(channels: format.channels))
    }

    /// The speaker was cleared (a pause, another card, muted): the next plan starts afresh.
    public mutating func reset() { next = nil }
}
