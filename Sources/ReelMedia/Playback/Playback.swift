import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// Plays one input headlessly from start to end (or to `maxFrames`): resolve the input, open the
/// demuxer through Reel's data sources, decode video (and audio), hand frames to the renderer,
/// and measure TTFF with its phases. All of it runs on a thread of its own, never on the
/// cooperative pool.
public actor Playback {
    private let executor: DedicatedThreadExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public nonisolated let request: PlaybackRequest
    public nonisolated let cancellation = Cancellation()
    /// Set by `stop()`: the decode loop ends at the next packet and the play reports what it played.
    private let stopping = Locked(false)
    /// Where the play stands (`progress`): counts updated as frames are decoded, and the renderer
    /// whose playhead, fps and buffer are read when asked (they move while the buffer drains).
    private let live = Locked(Live())
    /// The video's nominal frame duration, once open.
    private var frameSeconds = 1.0 / 30
    /// Where the play stands for its requests' CMCD (the buffer, stalls, started or not).
    private let cmcdStatus = Locked(CMCDPlay.Status())
    private let factory: any DataSourceFactory
    private let clock: any FrameClock
    private let onFrameHash: (@Sendable (FrameHash) -> Void)?

    /// `factory` makes every data source the playback opens (network, cache, files).
    public init(request: PlaybackRequest, factory: any DataSourceFactory, clock: any FrameClock = MonotonicFrameClock(),
                onFrameHash: (@Sendable (FrameHash) -> Void)? = nil) {
        self.request = request
        self.factory = factory
        self.clock = clock
        self.onFrameHash = onFrameHash
        self.executor = DedicatedThreadExecutor(name: "reel.playback")
    }

    deinit { executor.shutdown() }

    /// Stops the playback as soon as possible; `run` then throws `.cancelled`.
    public nonisolated func cancel() { cancellation.cancel() }

    /// Ends the play early but cleanly (Ctrl-C): it stops at the next packet and `run` returns the
    /// report of what played, marked `interrupted`. Before the first frame there is nothing to
    /// report: the play is cancelled instead (`run` throws `.cancelled`).
    public nonisolated func stop() {
        stopping.withLock { $0 = true }
        if !live.withLock({ $0.progress.started }) { cancellation.cancel() }
    }

    /// Where the play stands now: media time, frames, fps, buffer, bitrate, bytes (a progress line).
    public nonisolated var progress: PlaybackProgress {
        let (counted, renderer, frameSeconds) = live.withLock { ($0.progress, $0.renderer, $0.frameSeconds) }
        guard let renderer else { return counted }
        var progress = counted
        progress.mediaSeconds = renderer.shownMedia.map { $0.seconds + frameSeconds } ?? 0
        progress.fps = renderer.framesPerSecond
        progress.bufferedSeconds = renderer.bufferedDuration.seconds
        return progress
    }

    /// What `progress` reads: the counts, and the renderer once the decoding starts.
    private struct Live: Sendable {
        var progress = PlaybackProgress()
        var renderer: HeadlessRenderer?
        var frameSeconds = 1.0 / 30
    }

    public func run() throws -> PlaybackReport {
        let ffmpegLog = FFmpegLog()
        var report = try ffmpegLog.capture { try play() }
        report.errors += ffmpegLog.lines
        return report
    }

    private func play() throws -> PlaybackReport {
        let log = RequestLog()
        var timeline = TTFFTimeline()
        var demux = request.demux
        // ffmpeg's framemd5 times frames from what its probe finds: probe as it does (its default
        // probe size and analysis time).
        if request.frameHashes {
            demux.findStreamInfo = true
            demux.probeSizeBytes = max(demux.probeSizeBytes, 5_000_000)
            demux.analyzeDurationMs = max(demux.analyzeDurationMs, 5_000)
        }
        var opener = MediaOpener(
            factory: factory, cancellation: cancellation, log: log, constraints: request.constraints,
            manifestLimits: request.manifestLimits,
            demux: demux, includeAudio: request.decodeAudio, failureBudget: request.failureBudget)
        // A separate audio rendition opens after the first video frame, not before it.
        opener.deferAudio = true
        if request.cmcd {
            let status = cmcdStatus
            opener.cmcd = CMCDPlay(contentID: CMCDHints.contentID(for: request.input)) { status.withLock { $0 } }
        }
        let media = try opener.open(request.input, timeline: &timeline)

        // Codec open.
        let video = try Decoder(parameters: media.videoParameters, timeBase: media.video.timeBase, threads: request.threads)
        var audio: Decoder?
        if let stream = media.audio {
            audio = try? Decoder(parameters: stream.codecParameters, timeBase: stream.timeBase, threads: 1)
        }
        let audioIndex = audio == nil ? nil : media.audio?.index
        media.input.discardAll(except: Set([media.video.index] + (audioIndex.map { [$0] } ?? [])))
        timeline.codecOpenDone = .now
        let codecOpened = ContinuousClock.now

        // Decode.
        // Frames carry no pixels to the renderer, so holding `readAhead` of them costs nothing.
        frameSeconds = media.frameInterval.seconds
        let capacity = max(8, Int((request.readAhead / media.frameInterval).rounded(.up)))
        let renderer = HeadlessRenderer(mode: request.mode, clock: clock, capacity: capacity, interval: media.frameInterval)
        let seconds = frameSeconds
        live.withLock {
            $0.renderer = renderer
            $0.frameSeconds = seconds
        }
        let firstFrame = Locked<ContinuousClock.Instant?>(nil)
        let fast = request.mode == .fast
        // The adaptive rule's playhead: the media shown, or in fast mode the time since the first
        // frame (as if it played in real time), so it switches as a real-time play would.
        media.resolved.adaptive?.attach(
            probe: {
                let position = fast ? firstFrame.withLock { $0.map { ContinuousClock.now - $0 } } : renderer.shownMedia
                return ABRPlayhead(position: position ?? .zero, stalls: renderer.stats.stalls)
            },
            onSwitch: { _ in })
        var core = DecodeCore(
            timeBase: media.video.timeBase, maxFrames: request.maxFrames, hashes: request.frameHashes,
            thumbnailPath: request.thumbnailPath, onFrameHash: onFrameHash)
        if request.frameHashes {
            let rate = media.input.guessedFrameRate(media.video.index) ?? (num: 25, den: 1)
            core.hashStream = FrameHash.Stream(frameRate: .init(rate.num, rate.den), startSeconds: media.input.startSeconds(
                reading: media.video.index, transportStream: media.resolved.playlist?.segments.first?.initSection == nil))
        }
        var reader = PacketReader(media)
        var lateAudio: LateAudio?
        do {
            try decodeLoop(reader: &reader, video: video, videoIndex: media.video.index, audio: audio,
                           audioIndex: audioIndex, renderer: renderer, core: &core, firstFrame: firstFrame,
                           deferred: media.deferredAudio, lateAudio: &lateAudio)
        } catch {
            renderer.stop()
            lateAudio?.close()
            throw error
        }
        lateAudio?.close()
        if let late = lateAudio { audio = late.decoder }
        timeline.firstFrame = core.firstFrameAt
        let interrupted = stopping.withLock { $0 }
        // Stopped: what is queued is not shown (the user asked to stop now, not in 3 s).
        if interrupted { renderer.stop() }
        let shownSeconds = renderer.shownMedia.map { $0.seconds + frameSeconds } ?? 0
        let render = renderer.finish()
        // Transfers still open (a segment cut short by --frames) are logged as they close.
        media.input.close()
        if core.frames == 0 {
            let cause = media.bridge.errors.last.map { ": \($0.description)" } ?? ""
            throw ReelError(.decodeFailed, "no video frame could be decoded from '\(request.input.absoluteString)'\(cause)")
        }
        let phases = timeline.breakdown
        let wallMs = (ContinuousClock.now - timeline.began).milliseconds
        let network = log.summary
        let firstRequest = network.first.map {
            PlaybackReport.FirstRequest(url: $0.url, dnsMs: $0.dnsMs, connectMs: $0.connectMs, tlsMs: $0.tlsMs,
                                        firstByteMs: $0.firstByteMs, totalMs: $0.totalMs, reusedConnection: $0.reusedConnection)
        }
        // Playback fps: frames per second of presentation, in real time and in fast mode alike
        // (a fast play is judged on the media's timeline); how fast --fast decoded is apart.
        let fps = renderer.framesPerSecond ?? 0
        let decodeFps: Double? = request.mode == .fast
            ? Double(core.frames) / max(0.001, (ContinuousClock.now - codecOpened).seconds)
            : nil
        var report = PlaybackReport(
            url: request.input.absoluteString,
            variant: media.resolved.variant?.absoluteString,
            rendition: media.resolved.rendition,
            ttffMs: phases.totalMs,
            phases: .init(manifestMs: phases.manifestMs, openMs: phases.openMs, probeMs: phases.probeMs,
                          codecOpenMs: phases.codecOpenMs, firstFrameMs: phases.firstFrameMs),
            network: .init(
                requests: network.requests, bytes: network.bytes, cacheHitBytes: network.cacheHitBytes,
                firstRequest: firstRequest,
                perRequest: log.all.map {
                    .init(url: $0.url, kind: $0.kind.rawValue, bytes: $0.bytes, cacheHit: $0.cacheHit,
                          status: $0.httpStatus, totalMs: $0.totalMs, reusedConnection: $0.reusedConnection)
                }),
            video: .init(
                codec: video.format.codec, width: core.firstSize?.width ?? video.format.width,
                height: core.firstSize?.height ?? video.format.height, frames: core.frames, fps: fps, decodeFps: decodeFps,
                decodeMs: Distribution(core.decodeMs).percentiles, late: render.late, dropped: render.dropped,
                stalls: render.stalls, stallMs: render.stallTime.milliseconds,
                resolutionChanges: core.resolutionChanges, corruptPackets: reader.corruptPackets,
                decodeErrors: core.decodeErrors, mediaSeconds: core.mediaSeconds, shownSeconds: shownSeconds),
            audio: audio.map { .init(codec: $0.format.codec, frames: core.audioFrames) },
            errors: media.bridge.errors.map(\.description) + (media.bridge.gaveUp.map { [$0.description] } ?? []) + core.notes.items,
            wallMs: wallMs, abr: media.resolved.adaptive?.playReport, bandwidth: factory.bandwidthMeter?.snapshot)
        report.start = PlaybackReport.Start(log.all, input: request.input, cold: request.cold)
        report.interrupted = interrupted
        report.failure = interrupted ? nil : shortfall(frames: core.frames, mediaSeconds: core.mediaSeconds, bridge: media.bridge)
            .map(PlaybackReport.Failure.init)
        return report
    }

    /// Why the play ended before the end of its input, or nil: the failure budget ran out, or
    /// media that no variant could give (a segment that failed after its retries, or was not
    /// media) is missing from it. A play stopped at `maxFrames` got what it asked for.
    private func shortfall(frames: Int, mediaSeconds: Double, bridge: InputBridge) -> ReelError? {
        if let maxFrames = request.maxFrames, frames >= maxFrames { return nil }
        if reachedMaxSeconds(mediaSeconds) { return nil }
        let input = request.input.absoluteString
        if let gaveUp = bridge.gaveUp {
            return ReelError(gaveUp.code, "'\(input)' could not be played to its end (\(frames) frames played): \(gaveUp.description)")
        }
        guard let first = bridge.lostMedia.first else { return nil }
        let more = bridge.lostMedia.count - 1
        return ReelError(first.code, "'\(input)' could not be played to its end (\(frames) frames played): \(first.description)"
                         + (more > 0 ? " (and \(more) more failed fetch\(more == 1 ? "" : "es"))" : ""))
    }

    /// Whether the media handed over (the last frame counted for its nominal duration) reaches
    /// `maxMediaSeconds`.
    private func reachedMaxSeconds(_ mediaSeconds: Double) -> Bool {
        guard let limit = request.maxMediaSeconds else { return false }
        return mediaSeconds + frameSeconds >= limit - 0.0005
    }

    /// Updates `progress` after a frame was handed over: the counts, and the bitrate of what was
    /// read over the media decoded (the playhead, fps and buffer are read from the renderer).
    private func noteProgress(_ core: DecodeCore, renderer: HeadlessRenderer, bridge: InputBridge) {
        let buffered = renderer.bufferedDuration.seconds, bytes = bridge.bytesRead, decoded = core.mediaSeconds + frameSeconds
        let stalls = renderer.stats.stalls
        cmcdStatus.withLock { status in
            status.startup = false
            status.bufferMs = Int((buffered * 1000).rounded())
            status.stalls = stalls
        }
        live.withLock { live in
            live.progress.started = true
            live.progress.frames = core.frames
            live.progress.bytes = bytes
            live.progress.bitrateKbps = decoded > 0.5 ? Int((Double(bytes) * 8 / decoded / 1000).rounded()) : nil
        }
    }

    /// Reads packets and decodes them on this thread until the end, `maxFrames`,
    /// `maxMediaSeconds`, `stop()` or cancellation.
    private func decodeLoop(reader: inout PacketReader, video: Decoder, videoIndex: Int, audio: Decoder?,
                            audioIndex: Int?, renderer: HeadlessRenderer, core: inout DecodeCore,
                            firstFrame: Locked<ContinuousClock.Instant?>, deferred: DeferredAudio?,
                            lateAudio: inout LateAudio?) throws {
        var audioPending = deferred
        let timeBase = reader.input.streams.first { $0.index == videoIndex }?.timeBase
        let packet = Packet()
        reading: while true {
            // A play whose fetches kept failing ends where it got to; its report says why (`failure`).
            if reader.gaveUp != nil { break reading }
            if cancellation.isCancelled { throw ReelError(.cancelled, "playback of '\(request.input.absoluteString)' cancelled") }
            if stopping.withLock({ $0 }) { return }
            let result: PacketReader.Result
            do {
                result = try reader.read(into: packet, notes: &core.notes)
            } catch let error as ReelError where reader.gaveUp != nil && error.code != .cancelled {
                break reading
            }
            switch result {
            case .endOfStream: break reading
            case .skipped: continue
            case .packet: break
            }
            defer { packet.unref() }
            if packet.streamIndex == videoIndex {
                guard try core.decodeVideo(packet, with: video, renderer: renderer) else { return }
                if let first = core.firstFrameAt { firstFrame.withLock { $0 = $0 ?? first } }
                noteProgress(core, renderer: renderer, bridge: reader.input.bridge)
                if reachedMaxSeconds(core.mediaSeconds) { return }
                if core.firstFrameAt != nil, let pending = audioPending {
                    audioPending = nil
                    do {
                        lateAudio = try LateAudio(pending)
                    } catch let error as ReelError {
                        core.notes.add("the audio rendition could not be opened: \(error.description)")
                    }
                }
                try lateAudio?.catchUp(to: timeBase.flatMap { packet.seconds(in: $0) }, core: &core)
            } else if packet.streamIndex == audioIndex, let audio {
                core.decodeAudio(packet, with: audio)
            }
        }
        _ = try core.decodeVideo(nil, with: video, renderer: renderer)
        if let audio { core.decodeAudio(nil, with: audio) }
        try lateAudio?.finish(core: &core)
    }
}
