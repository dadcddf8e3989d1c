import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// A mounted card's video: its input (read through a `DataSourceFactory`), a decoder lent by the
/// `DecoderPool`, and a `HeadlessRenderer`. It obeys whoever owns it: `prepare()` (mount: open,
/// take a decoder at `.mounted` priority, buffer ahead), `play()`, `pause()` (keeps its position
/// and, until the pool needs it elsewhere, its decoder) and `stop()` (unmount: input closed,
/// decoder back to the pool). It reports on `events` and `status`.
///
/// Blocking work runs on dedicated threads only: the demuxer on the player's own thread, decoding
/// on the pooled decoder's. The calls above only change shared state, wake those threads and cancel
/// reads inside FFmpeg and libcurl, so they take effect at once, even mid-read.
public final class Player: Sendable {
    public let card: String
    public let input: URL
    /// Everything the player reports, in order; finishes after `.stopped`.
    public let events: AsyncStream<PlayerEvent>
    /// The play's sound decoded for a speaker, with `options.sound` (nil otherwise); it stays
    /// empty when the input has no muxed sound.
    public let sound: PlayerSound?

    private let pool: DecoderPool
    private let options: PlayerOptions
    private let frameClock: any FrameClock
    private let onFrameHash: (@Sendable (FrameHash) -> Void)?
    private let cancellation = Cancellation()
    private let control = PlayerControl()
    private let ticket: DecoderTicket
    private let demuxer: PlayerInput
    private let log = RequestLog()
    private let preview: PreviewTimer
    private let continuation: AsyncStream<PlayerEvent>.Continuation
    private let shared = Locked(Shared())

    /// State the driver, the owner's calls and the decode thread share.
    private struct Shared {
        var state: PlayerStatus.State = .idle
        var renderer: HeadlessRenderer?
        var queue: PacketQueue?
        var session: PlayerDecodeSession?
        var adaptive: ABRController?
        var timeline: TTFFTimeline?
        var ttff: TTFFBreakdown?
        var firstFrameShown = false
        var preemptions = 0
        var rebuffers = 0
        var ended = false
        var previewElapsed = false
        var failure: ReelError?
        var driver: Task<PlayerReport, Never>?
        var demuxing: Task<Void, Never>?
    }

    /// Where the player stands for its requests' CMCD: started or not, its stalls.
    private let cmcdStatus: Locked<CMCDPlay.Status>

    /// A player for `card` playing `input`. `frameClock` paces the renderer; `clock` times the
    /// preview limit (tests pass manual clocks). `onFrameHash` hears every frame's hash when
    /// `options.frameHashes` is set, on the decoder's thread.
    public init<C: Clock>(card: String, input: URL, factory: any DataSourceFactory, pool: DecoderPool,
                          options: PlayerOptions = PlayerOptions(), frameClock: any FrameClock = MonotonicFrameClock(),
                          clock: C, onFrameHash: (@Sendable (FrameHash) -> Void)? = nil) where C.Duration == Duration {
        self.card = card
        self.input = input
        self.pool = pool
        self.options = options
        self.frameClock = frameClock
        self.onFrameHash = onFrameHash
        self.ticket = DecoderTicket(card: card)
        let cmcdStatus = Locked(CMCDPlay.Status())
        self.cmcdStatus = cmcdStatus
        var opener = MediaOpener(
            factory: factory, cancellation: cancellation, log: log, constraints: options.constraints,
            manifestLimits: options.manifestLimits,
            demux: options.demux, includeAudio: options.sound != nil, failureBudget: options.failureBudget,
            deferAudio: options.sound != nil)
        if options.cmcd {
            opener.cmcd = CMCDPlay(contentID: CMCDHints.contentID(for: input)) { cmcdStatus.withLock { $0 } }
        }
        self.demuxer = PlayerInput(opener: opener, threadName: "\(options.threadName).\(card)")
        self.sound = options.sound.map(PlayerSound.init)
        self.preview = PreviewTimer(clock: PlayerClock(clock))
        (events, continuation) = AsyncStream.makeStream()
        preview.onElapsed { [weak self] watched in self?.previewReached(watched) }
        ticket.onRevoke { [weak self] in self?.revoked() }
        let driver = Task { await self.drive() }
        shared.withLock { $0.driver = driver }
    }

    /// Same, timing the preview limit on the continuous clock.
    public convenience init(card: String, input: URL, factory: any DataSourceFactory, pool: DecoderPool,
                            options: PlayerOptions = PlayerOptions(), frameClock: any FrameClock = MonotonicFrameClock(),
                            onFrameHash: (@Sendable (FrameHash) -> Void)? = nil) {
        self.init(card: card, input: input, factory: factory, pool: pool, options: options, frameClock: frameClock,
                  clock: ContinuousClock(), onFrameHash: onFrameHash)
    }

    // MARK: - What the owner calls

    /// Mounts: opens the input, takes a decoder at `.mounted` priority and buffers ahead.
    public func prepare() {
        control.prepare()
    }

    /// Plays, or resumes from the next frame after a pause. `previewLimit`, when given, pauses the
    /// player and reports `.previewElapsed` once it has played that long (pauses excluded). A
    /// player that ended or stopped does not play again.
    public func play(previewLimit: Duration? = nil) {
        let state = shared.withLock { $0.state }
        guard state != .ended && state != .failed, control.play() else { return }
        ticket.setPriority(.playing)
        preview.play(limit: previewLimit)
        let pool = self.pool
        Task { await pool.reschedule() }
    }

    /// Pauses: decoding stops after the current packet, the renderer holds its queued frames, the
    /// demuxer goes on buffering up to the watermark. The decoder stays unless the pool needs it.
    public func pause() {
        control.pause()
        preview.pause()
        let (renderer, queue, shown) = shared.withLock { ($0.renderer, $0.queue, $0.firstFrameShown) }
        renderer?.pause()
        queue?.wake()
        ticket.setPriority(shown ? .paused : .mounted)
        let pool = self.pool
        Task { await pool.reschedule() }
    }

    /// Unmounts: stops reading (cancelling reads inside FFmpeg and libcurl), returns the decoder to
    /// the pool flushed, closes the input, and reports what the player did.
    public func stop() async -> PlayerReport {
        control.stop()
        preview.pause()
        let (renderer, queue, driver) = shared.withLock { ($0.renderer, $0.queue, $0.driver) }
        // The queue closes before the input's reads are cancelled: a demuxer whose reads fail
        // skips the rest of its segments and reports the end of the stream, which the decoder
        // must not take for the video's real end.
        queue?.close()
        renderer?.stop()
        cancellation.cancel()
        driver?.cancel()
        return await driver!.value
    }

    /// The player's state and counters now.
    public var status: PlayerStatus {
        let (state, renderer, queue, session, preemptions, rebuffers) = shared.withLock {
            ($0.state, $0.renderer, $0.queue, $0.session, $0.preemptions, $0.rebuffers)
        }
        var status = PlayerStatus()
        status.state = state
        status.frames = session?.frames ?? 0
        status.buffered = (queue?.span ?? .zero) + (renderer?.bufferedDuration ?? .zero)
        status.stalls = renderer?.stats.stalls ?? 0
        status.rebuffers = rebuffers
        status.preemptions = preemptions
        return status
    }

    /// The picture presented last, with `options.keepsPicture` (nil before the first frame is
    /// shown): what a screen shows of this card, a paused one's last frame included.
    public var picture: Picture? {
        shared.withLock { $0.renderer }?.picture
    }

    // MARK: - Driver

    /// Runs the player's life: wait to be started, open, take a decoder, then decode whenever told
    /// to play, until stopped. Awaits only; the blocking work runs on the demuxer's and the
    /// decoder's threads.
    private func drive() async -> PlayerReport {
        var changes = control.changes.makeAsyncIterator()
        do {
            try await run(&changes)
        } catch let error as ReelError where error.code == .cancelled && control.isStopped {
            // Stopped while opening or waiting for a decoder.
        } catch {
            let failure = error as? ReelError ?? ReelError(.internalFailure, "player for '\(input.absoluteString)' failed: \(error)")
            shared.withLock {
                $0.failure = failure
                $0.state = .failed
            }
            emit(.failed(failure))
            await pool.release(ticket)
        }
        while !control.isStopped {
            if await changes.next() == nil { break }
        }
        return await tearDown()
    }

    private func run(_ changes: inout AsyncStream<Void>.Iterator) async throws {
        while !control.current.started {
            if control.isStopped { return }
            if await changes.next() == nil { return }
        }
        if control.isStopped { return }
        setState(.preparing)
        let opened = try await demuxer.open(input, timeline: TTFFTimeline(began: .now), sound: sound?.buffer)
        let renderer = HeadlessRenderer(mode: options.mode, clock: frameClock, interval: opened.frameInterval)
        renderer.pause()
        sound?.attach(PlayerSound.Source(
            playhead: { renderer.playhead },
            playing: { [weak self] in self?.shared.withLock { $0.state == .playing } ?? false }))
        let queue = PacketQueue(frameInterval: opened.frameInterval, prepared: !control.current.wantsPlay)
        let session = PlayerDecodeSession(
            queue: queue, renderer: renderer, control: control, ticket: ticket, policy: options.buffer,
            stream: opened.stream, hashes: options.frameHashes, pictures: options.keepsPicture, onFrameHash: onFrameHash,
            onFirstFrame: { [weak self] instant in self?.firstFrame(at: instant) },
            onStall: { [weak self] in self?.stalled() },
            onResume: { [weak self] waited in self?.emit(.rebuffered(waited)) })
        shared.withLock {
            $0.renderer = renderer
            $0.queue = queue
            $0.session = session
            $0.timeline = opened.timeline
            $0.adaptive = opened.adaptive
        }
        // The adaptive rule sees where playback stands: the media shown and the times it ran dry.
        opened.adaptive?.attach(
            probe: { [weak self] in
                let (stalls, playing) = self?.shared.withLock { ($0.rebuffers, $0.state == .playing) } ?? (0, false)
                return ABRPlayhead(position: renderer.shownMedia ?? .zero, stalls: stalls, playing: playing)
            },
            onSwitch: { [weak self] change in self?.emit(.variantSwitched(change)) })
        if control.isStopped { return }

        ticket.setPriority(control.current.wantsPlay ? .playing : .mounted)
        _ = try await pool.acquire(ticket, for: opened.stream)
        shared.withLock { $0.timeline?.codecOpenDone = .now }
        if control.isStopped { return }
        // Ready before the read-ahead starts, so whoever hears `.bufferFull` finds the player ready.
        setState(.ready)
        emit(.prepared(opened.stream.format))
        let demuxer = self.demuxer
        let options = self.options
        let demuxing = Task {
            await demuxer.readAhead(into: queue, policy: options.buffer, renderer: renderer) { [weak self] buffered in
                self?.emit(.bufferFull(buffered))
            }
        }
        shared.withLock { $0.demuxing = demuxing }
        if control.isStopped { return }
        if options.preroll, !control.shouldDecode, let decoder = ticket.decoder,
           await decoder.run(for: ticket, { decoder in session.preroll(decoder) }) == true {
            emit(.prerolled)
        }

        // The play requests decoding has answered so far.
        var plays = control.current.plays
        while true {
            while !control.shouldDecode {
                if control.isStopped { return }
                // Asked to play and paused again before decoding resumed: every pause after a
                // play is answered with `.paused`, also this one.
                let now = control.current
                if now.plays != plays && !now.wantsPlay && shared.withLock({ $0.firstFrameShown }) {
                    plays = now.plays
                    emit(.paused(frames: session.frames))
                }
                if await changes.next() == nil { return }
            }
            guard ticket.beginPlaying(), let decoder = ticket.decoder else {
                // The pool took the decoder back while this card was mounted or paused: take one
                // again, as a player now, and pick up after the last frame shown.
                _ = try await pool.acquire(ticket, for: opened.stream)
                session.needsReplay = true
                continue
            }
            plays = control.current.plays
            setState(.playing)
            queue.endPrepared()
            renderer.resume()
            let outcome = await decoder.run(for: ticket) { decoder in session.run(decoder) } ?? .revoked
            switch outcome {
            case .paused:
                renderer.pause()
                if !control.shouldDecode {
                    setState(.paused)
                    emit(.paused(frames: session.frames))
                    await pool.reschedule()
                }
            case .revoked:
                session.needsReplay = true
            case .stopped:
                return
            case .ended where control.isStopped:
                // An end met while stopping is the cancelled input's, not the video's.
                return
            case .ended:
                preview.pause()
                shared.withLock {
                    $0.ended = true
                    $0.state = .ended
                }
                // The decoder goes back first: whoever hears `.ended` finds it free in the pool.
                await pool.release(ticket)
                emit(.ended(frames: session.frames))
                return
            case .failed(let error):
                throw error
            }
        }
    }

    /// Stops every thread of the player, returns the decoder and closes the input.
    private func tearDown() async -> PlayerReport {
        cancellation.cancel()
        let (renderer, queue, demuxing) = shared.withLock { ($0.renderer, $0.queue, $0.demuxing) }
        queue?.close()
        renderer?.stop()
        preview.pause()
        await demuxing?.value
        await pool.release(ticket)
        let corruptPackets = await demuxer.corruptPackets
        let notes = await demuxer.problems
        await demuxer.close()
        let report = shared.withLock { shared -> PlayerReport in
            if shared.state != .failed { shared.state = .stopped }
            let render = shared.renderer?.stats ?? RenderStats()
            let network = log.summary
            return PlayerReport(
                card: card, url: input.absoluteString, frames: shared.session?.frames ?? 0, ttff: shared.ttff,
                stalls: render.stalls, stallMs: render.stallTime.milliseconds, rebuffers: shared.rebuffers,
                rebufferMs: shared.session?.rebufferTime.milliseconds ?? 0, late: render.late,
                dropped: render.dropped, preemptions: shared.preemptions, ended: shared.ended,
                previewElapsed: shared.previewElapsed, decodeErrors: shared.session?.decodeErrors ?? 0,
                corruptPackets: corruptPackets, error: shared.failure?.description,
                notes: notes + (shared.session?.notes ?? []), requests: network.requests, bytes: network.bytes,
                playedSeconds: shared.renderer?.shownMedia?.seconds ?? 0, abr: shared.adaptive?.playReport)
        }
        emit(.stopped)
        continuation.finish()
        return report
    }

    // MARK: - Callbacks from the player's threads

    private func firstFrame(at instant: ContinuousClock.Instant) {
        cmcdStatus.withLock { $0.startup = false }
        let requested = control.current.playRequest
        let ttff = shared.withLock { shared -> TTFFBreakdown in
            shared.firstFrameShown = true
            shared.timeline?.requested = requested
            shared.timeline?.firstFrame = instant
            let ttff = shared.timeline?.breakdown ?? TTFFBreakdown()
            shared.ttff = ttff
            return ttff
        }
        preview.firstFrame()
        emit(.firstFrame(ttff))
    }

    private func stalled() {
        shared.withLock { $0.rebuffers += 1 }
        cmcdStatus.withLock { $0.stalls += 1 }
        emit(.stalled)
    }

    private func revoked() {
        let queue = shared.withLock { shared -> PacketQueue? in
            shared.preemptions += 1
            return shared.queue
        }
        queue?.wake()
        emit(.preempted)
    }

    private func previewReached(_ watched: Duration) {
        shared.withLock { $0.previewElapsed = true }
        emit(.previewElapsed(watched))
        pause()
    }

    private func setState(_ state: PlayerStatus.State) {
        shared.withLock { shared in
            if shared.state != .failed && shared.state != .stopped { shared.state = state }
        }
    }

    private func emit(_ event: PlayerEvent) {
        continuation.yield(event)
    }
}
