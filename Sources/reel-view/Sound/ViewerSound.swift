import Foundation
import ReelCore
import ReelEngine
import ReelMedia

/// The sound of the short that plays (in the feed, or opened alone): muted until the user asks
/// (`m`), then its player's decoded sound queued on the speaker each frame, kept with the picture
/// by `SoundSync` (skipped or held back with silence past 100 ms). A pause, a stall, another card
/// or muting again clears the speaker. Carousel cards and merch never sound. Without a speaker the
/// viewer runs silent and `m` says why.
final class ViewerSound {
    static let format = SoundFormat(sampleRate: 48_000, channels: 2)

    /// What `--json` reports of the sound.
    struct Figures: Codable {
        /// SDL's audio driver, or nil without a device.
        var driver: String?
        /// Why there is no sound, when there is none.
        var error: String?
        var sampleRate: Int
        var channels: Int
        /// Seconds on the screen's clock when the device opened, and each time `m` turned the
        /// sound on and off.
        var openedAt: Double?
        var unmutedAt: [Double] = []
        var mutedAt: [Double] = []
        /// The cards heard, in order.
        var cards: [String] = []
        /// Seconds of the shorts' sound queued, of silence queued to hold it back, and the
        /// times it was moved to the picture (a start counts) or held.
        var soundSeconds = 0.0
        var silenceSeconds = 0.0
        var skips = 0
        var holds = 0
        /// How far the sound heard was from the picture shown, each frame it played: ms.
        var offsetMs: Stats?
        /// The sound's work in each UI frame while on (reading it, queueing it): ms.
        var workMs: Stats?

        struct Stats: Codable {
            var p50: Double?
            var p99: Double?
            var max: Double?
            var count: Int
        }
    }

    private let speaker: SDLSpeaker?
    private(set) var on = false
    private var card: String?
    /// 200 ms queued ahead rides over a slow UI frame; the sync allows for it.
    private var sync = SoundSync(format: ViewerSound.format, lead: 0.2)
    private var offsets = Distribution()
    private var work = Distribution()
    private(set) var figures: Figures

    /// Opens the speaker; without one the viewer runs silent.
    init() {
        figures = Figures(sampleRate: Self.format.sampleRate, channels: Self.format.channels)
        do {
            let speaker = try SDLSpeaker(format: Self.format)
            self.speaker = speaker
            figures.driver = speaker.driver
        } catch {
            speaker = nil
            figures.error = (error as? ReelError)?.message ?? "\(error)"
        }
    }

    /// Notes when the speaker opened, seconds on the window's clock (before it: negative).
    func opened(at time: Double) {
        if speaker != nil { figures.openedAt = time }
    }

    /// What the HUD says: "none" without a speaker, "off", "on", or "on: <the card heard>".
    var state: String {
        guard speaker != nil else { return "none" }
        guard on else { return "off" }
        return card.map { "on: \($0)" } ?? "on"
    }

    /// The format the shorts' players decode to, nil without a speaker.
    var format: SoundFormat? { speaker == nil ? nil : Self.format }

    /// `m`: sound on or off; returns the note to show.
    func toggle(at time: Double) -> String {
        guard speaker != nil else { return "No sound: \(figures.error ?? "no audio device")" }
        on.toggle()
        if on {
            figures.unmutedAt.append(time)
            return "Sound on"
        }
        figures.mutedAt.append(time)
        stop()
        return "Sound off"
    }

    /// Tops the speaker up with the sound of `playing` (the short that plays, nil when none
    /// does), once a frame.
    func update(engine: FeedEngine, playing: String?) {
        guard on, let speaker else { return }
        let began = ContinuousClock.now
        defer { work.record((ContinuousClock.now - began).seconds * 1000) }
        let sound = playing.flatMap { engine.sound(card: $0) }
        guard let sound, let playing, sound.isPlaying, let playhead = sound.playhead else {
            stop()
            return
        }
        if card != playing {
            stop()
            card = playing
            figures.cards.append(playing)
        }
        let plan = sync.plan(playhead: playhead, queued: speaker.queuedSeconds)
        if plan.silence > 0 {
            speaker.queueSilence(frames: plan.silence)
            figures.silenceSeconds += Self.format.seconds(frames: plan.silence)
        }
        guard plan.frames > 0 else { return }
        let chunk = sound.read(from: plan.from, maxFrames: plan.frames)
        sync.queued(chunk)
        guard let chunk else { return }
        speaker.queue(chunk.samples)
        figures.soundSeconds += Self.format.seconds(frames: chunk.frames(channels: Self.format.channels))
        figures.skips = sync.skips
        figures.holds = sync.holds
        // The sample heard now is the one queued `queuedSeconds` before the end of the queue.
        if let next = sync.next {
            offsets.record(abs(next - speaker.queuedSeconds - playhead) * 1000)
        }
    }

    /// Clears the speaker; the next sound starts afresh.
    private func stop() {
        if card != nil || sync.next != nil { speaker?.clear() }
        card = nil
        sync.reset()
    }

    /// The figures with the offsets' distribution, for the report; closes the speaker.
    func finish() -> Figures {
        speaker?.close()
        var figures = self.figures
        figures.offsetMs = Self.stats(offsets)
        figures.workMs = Self.stats(work)
        return figures
    }

    private static func stats(_ distribution: Distribution) -> Figures.Stats? {
        distribution.isEmpty ? nil
            : Figures.Stats(p50: distribution.p50, p99: distribution.p99, max: distribution.max, count: distribution.count)
    }
}
