import CAVCodec
import Foundation
import ReelCore
import Synchronization

/// A player's decode side: takes packets from its queue and decodes them with the shared
/// `DecodeCore` on the pooled decoder's thread, while the player is told to play. It keeps the
/// packets since the last key frame, so a fresh decoder (after a preemption) replays them and
/// goes on exactly after the last frame shown.
// @unchecked Sendable: the mutable fields are touched only inside `PooledDecoder.run` jobs, which
// the player's driver awaits one at a time; `frames` is read from other threads through `Atomic`.
final class PlayerDecodeSession: @unchecked Sendable {
    enum Outcome: Sendable {
        case paused
        case stopped
        /// The pool took the decoder back (or the ticket no longer holds it).
        case revoked
        case ended
        case failed(ReelError)
    }

    private let queue: PacketQueue
    private let renderer: HeadlessRenderer
    private let control: PlayerControl
    private let ticket: DecoderTicket
    private let policy: BufferPolicy
    private let timeBase: AVRational
    private var core: DecodeCore
    private var sinceKeyFrame: [Packet] = []
    private let ffmpegLog = FFmpegLog()
    /// The next run starts on a decoder that has not seen this player's packets.
    var needsReplay = false
    private let handed = Atomic<Int>(0)
    /// Times the player ran dry while playing, and the time it waited to go on.
    private(set) var rebuffers = 0
    private(set) var rebufferTime: Duration = .zero
    private let onFirstFrame: @Sendable (ContinuousClock.Instant) -> Void
    private let onStall: @Sendable () -> Void
    private let onResume: @Sendable (Duration) -> Void

    init(queue: PacketQueue, renderer: HeadlessRenderer, control: PlayerControl, ticket: DecoderTicket,
         policy: BufferPolicy, stream: StreamParameters, hashes: Bool, pictures: Bool = false,
         onFrameHash: (@Sendable (FrameHash) -> Void)?,
         onFirstFrame: @escaping @Sendable (ContinuousClock.Instant) -> Void, onStall: @escaping @Sendable () -> Void,
         onResume: @escaping @Sendable (Duration) -> Void = { _ in }) {
        self.queue = queue
        self.renderer = renderer
        self.control = control
        self.ticket = ticket
        self.policy = policy
        self.timeBase = stream.timeBase
        self.core = DecodeCore(timeBase: stream.timeBase, hashes: hashes, pictures: pictures, onFrameHash: onFrameHash)
        self.onFirstFrame = onFirstFrame
        self.onStall = onStall
        self.onResume = onResume
    }

    /// Frames handed to the renderer so far (any thread).
    var frames: Int { handed.load(ordering: .relaxed) }
    var decodeErrors: Int { core.decodeErrors }
    var notes: [String] { core.notes.items + ffmpegLog.lines }

    /// Decodes until the player should stop decoding; on `decoder`'s thread.
    func run(_ decoder: Decoder) -> Outcome {
        ffmpegLog.capture { decode(with: decoder) }
    }

    /// Decodes ahead while the player is mounted and not playing, until one frame is decoded and
    /// held (shown at the next play), the input ends or the player is told otherwise; on
    /// `decoder`'s thread. True when a frame is held.
    func preroll(_ decoder: Decoder) -> Bool {
        ffmpegLog.capture { prerollFrame(with: decoder) }
    }

    private func prerollFrame(with decoder: Decoder) -> Bool {
        guard core.frames == 0, core.held.isEmpty else { return !core.held.isEmpty }
        decoder.setPacketTimeBase(timeBase)
        core.holding = true
        defer { core.holding = false }
        do {
            if needsReplay {
                needsReplay = false
                try replay(decoder)
            }
            while core.held.isEmpty {
                let epoch = queue.epoch
                if control.isStopped || ticket.isRevoked || ticket.decoder == nil { break }
                guard case .packet(let packet) = queue.pop(wait: true, since: epoch) else { break }
                try decode(packet, with: decoder)
            }
        } catch {
            // The next run meets the same problem and reports it.
        }
        return !core.held.isEmpty
    }

    private func decode(with decoder: Decoder) -> Outcome {
        do {
            decoder.setPacketTimeBase(timeBase)
            // A frame decoded ahead is shown first; a replay below then skips past it.
            if !core.held.isEmpty {
                let hadFrame = core.firstFrameAt != nil
                try core.releaseHeld(to: renderer)
                handed.store(core.frames, ordering: .relaxed)
                if !hadFrame, let first = core.firstFrameAt { onFirstFrame(first) }
            }
            if needsReplay {
                needsReplay = false
                try replay(decoder)
            }
            return try decodeLoop(decoder)
        } catch let error as ReelError {
            return .failed(error)
        } catch {
            return .failed(ReelError(.decodeFailed, "decoding failed: \(error)"))
        }
    }

    private func exitReason() -> Outcome? {
        if control.isStopped { return .stopped }
        if ticket.isRevoked || ticket.decoder == nil { return .revoked }
        if !control.shouldDecode { return .paused }
        return nil
    }

    private func decodeLoop(_ decoder: Decoder) throws -> Outcome {
        while true {
            let epoch = queue.epoch
            if let reason = exitReason() { return reason }
            // Waiting for the next packet is fine before the first frame (or when nothing waits
            // for frames), and while frames remain to be shown, but only until they have been:
            // then the picture freezes and the player has run dry, whether the queue has been
            // empty since or packets trickle in slower than they play. The frame on screen
            // counts: just after the first frame nothing is queued, yet it shows for a frame's
            // interval, time for the next packet to arrive.
            let unbounded = core.frames == 0 || renderer.mode == .fast
            let ahead = renderer.timeToFreeze
            let deadline = unbounded ? nil : ContinuousClock.now + ahead
            switch queue.pop(wait: unbounded || ahead > .zero, since: epoch, deadline: deadline) {
            case .packet(let packet):
                try decode(packet, with: decoder)
            case .empty:
                // Ran dry while playing: rebuffer until enough is buffered again.
                rebuffers += 1
                onStall()
                let began = ContinuousClock.now
                let resumed = queue.waitToResume(policy: policy, extra: { renderer.bufferedDuration }, since: epoch)
                let waited = ContinuousClock.now - began
                rebufferTime += waited
                onResume(waited)
                if !resumed { continue }
            case .ended:
                _ = try core.decodeVideo(nil, with: decoder, renderer: renderer)
                handed.store(core.frames, ordering: .relaxed)
                _ = renderer.finish()
                return .ended
            case .failed(let error):
                return .failed(error)
            case .interrupted:
                continue
            }
        }
    }

    private func decode(_ packet: Packet, with decoder: Decoder) throws {
        if packet.isKeyFrame { sinceKeyFrame.removeAll() }
        sinceKeyFrame.append(packet)
        let hadFrame = core.firstFrameAt != nil
        _ = try core.decodeVideo(packet, with: decoder, renderer: renderer)
        handed.store(core.frames, ordering: .relaxed)
        if !hadFrame, let first = core.firstFrameAt { onFirstFrame(first) }
    }

    /// Feeds a fresh decoder the packets since the last key frame; frames up to the last one
    /// handed over are decoded but not shown again.
    private func replay(_ decoder: Decoder) throws {
        guard !sinceKeyFrame.isEmpty else { return }
        if core.frames > 0 { core.skipThrough = core.lastTimestamp ?? Int64.min }
        for packet in sinceKeyFrame {
            _ = try core.decodeVideo(packet, with: decoder, renderer: renderer)
        }
        handed.store(core.frames, ordering: .relaxed)
    }
}
