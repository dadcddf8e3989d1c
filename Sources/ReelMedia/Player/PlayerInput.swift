import CAVCodec
import CAVFormat
import Foundation
import ReelCore
import ReelNet

/// A player's demuxer on a thread of its own: opens the input with the shared `MediaOpener`,
/// then reads video packets into the player's queue ahead of the decoder, resting at the
/// buffer's watermark, until the end, a failure or the player's stop (which cancels the reads
/// inside FFmpeg and libcurl).
actor PlayerInput {
    private let executor: DedicatedThreadExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let opener: MediaOpener
    private var media: OpenedMedia?
    private var reader: PacketReader?
    /// Decodes the input's sound alongside the reads, when the player wants it and there is one.
    private var sound: SoundDecoder?
    private(set) var notes = NoteList()
    /// FFmpeg's errors printed on this thread, kept for the report instead of the terminal.
    private let ffmpegLog = FFmpegLog()

    /// What opening found, for the player's other threads.
    struct Opened: Sendable {
        var stream: StreamParameters
        var frameInterval: Duration
        var timeline: TTFFTimeline
        /// The play's variant choice per segment, for a master or an MPD.
        var adaptive: ABRController?
    }

    init(opener: MediaOpener, threadName: String) {
        self.opener = opener
        self.executor = DedicatedThreadExecutor(name: threadName)
    }

    deinit { executor.shutdown() }

    /// Resolves and opens `url`, recording the manifest, open and probe phases: its video, and
    /// with `sound` its muxed audio too, decoded into it as the reads go (a sound that cannot be
    /// decoded is noted and left out: the video plays on).
    func open(_ url: URL, timeline: TTFFTimeline, sound buffer: SoundBuffer? = nil) throws -> Opened {
        var timeline = timeline
        let media = try ffmpegLog.capture { try opener.open(url, timeline: &timeline) }
        if let buffer, let audio = media.audio {
            do {
                sound = try SoundDecoder(stream: audio, buffer: buffer)
            } catch {
                notes.add("the sound of '\(url.absoluteString)' is left out: \(error)")
            }
        }
        media.input.discardAll(except: Set([media.video.index] + (sound.map { [$0.streamIndex] } ?? [])))
        self.media = media
        reader = PacketReader(media)
        return Opened(stream: try media.videoStreamParameters(), frameInterval: media.frameInterval, timeline: timeline,
                      adaptive: media.resolved.adaptive)
    }

    /// Reads video packets into `queue` while `policy` allows, until the end or the queue closes.
    /// `onRest` hears each time reading stops at the watermark.
    func readAhead(into queue: PacketQueue, policy: BufferPolicy, renderer: HeadlessRenderer,
                   onRest: @Sendable (Duration) -> Void) {
        ffmpegLog.capture { readPackets(into: queue, policy: policy, renderer: renderer, onRest: onRest) }
    }

    private func readPackets(into queue: PacketQueue, policy: BufferPolicy, renderer: HeadlessRenderer,
                             onRest: @Sendable (Duration) -> Void) {
        guard let media, var reader else { return }
        defer { self.reader = reader }
        let videoIndex = media.video.index
        let timeBase = media.video.timeBase
        do {
            while queue.waitForRoom(policy: policy, extra: { renderer.bufferedDuration }, onRest: onRest) {
                let packet = Packet()
                switch try reader.read(into: packet, notes: &notes) {
                case .endOfStream:
                    sound?.decode(nil, notes: &notes)
                    queue.finish()
                    return
                case .skipped:
                    continue
                case .packet:
                    if packet.streamIndex == videoIndex {
                        queue.push(packet, pts: packet.seconds(in: timeBase))
                    } else if let sound, packet.streamIndex == sound.streamIndex {
                        sound.decode(packet, notes: &notes)
                    }
                }
            }
        } catch let error as ReelError {
            queue.fail(error)
        } catch {
            queue.fail(ReelError(.demuxFailed, "reading '\(media.input.url)' failed: \(error)"))
        }
    }

    /// Packets seen corrupt so far.
    var corruptPackets: Int { reader?.corruptPackets ?? 0 }

    /// Problems the demuxer met: its bridge's (a segment that failed to load), its reads', FFmpeg's.
    var problems: [String] {
        (media?.bridge.errors.map(\.description) ?? []) + notes.items + ffmpegLog.lines
    }

    /// Closes the demuxer and every source it opened, on this thread.
    func close() {
        reader = nil
        sound = nil
        media = nil
    }
}
