import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelManifest
import ReelMedia
import ReelNet

/// A simulated player: it resolves its video (the manifest, then the chosen variant's playlist
/// and init section, the start variant chosen as playback chooses it, a variant whose start is
/// cached first), reads segments ahead under the real `BufferPolicy` (a little before its first
/// play, more after), decodes its first frame once the start of the first segment is there
/// (`SimTiming`) and holds it when prerolling, and plays at 1x: it runs dry when the playhead
/// reaches what arrived, goes on once `playback.bufferWatermarkMs` is back (or `playback.fastResumeMs`
/// arriving fast enough: `BufferPolicy`), and ends at the
/// video's end. Adaptive plays choose each segment's variant with the real `ABRPolicy`.
struct SimPlayer {
    enum Step { case manifest, playlist, initSection, segments }

    let card: String
    let stream: SimStream?
    var version = 0
    var step = Step.manifest
    var variant = 0
    var abr: ABRPolicy?
    var startEstimate = 0
    var segmentVariants: [Int] = []
    var downloaded = 0
    var fetching = false
    var reading = true
    /// The variant its own rules ask its next segment at, until the download policy grants it.
    var asks: Int?
    /// The start of the first segment is there: it can decode its first frame.
    var opened = false
    var decodeDue: Double?
    var decoded = false
    var prerolled = false
    var framed = false
    var firstFrameDue: Double?
    var playing = false
    var everPlayed = false
    var playRequest: Double?
    var previewLimit: Double?
    var previewReported = false
    var playhead = 0.0
    /// When the playhead was last moved.
    var clock = 0.0
    var stalledSince: Double?
    var rebuffers = 0
    var rebufferSeconds = 0.0
    var ended = false
    var stopped = false
    var mountedAt = 0.0
    var openedAt: Double?
    /// The resource it reads now.
    var currentKey: String?
    var switches: [ABRReport.Switch] = []
    var ttff: TTFFBreakdown?

    /// Media seconds of the segment on its way that have arrived (its bytes so far, as a share
    /// of its play time): a demuxer reads a segment as it arrives.
    var partial = 0.0

    /// Media seconds downloaded: whole segments and what arrived of the next.
    var downloadedMedia: Double { (stream.map { $0.segmentDurations.prefix(downloaded).reduce(0, +) } ?? 0) + partial }

    /// Media seconds downloaded ahead of the playhead.
    var buffered: Double { max(0, downloadedMedia - playhead) }

    var duration: Double { stream?.duration ?? 0 }
    var isComplete: Bool { downloaded >= (stream?.segmentDurations.count ?? 0) }
    var moves: Bool { playing && framed && stalledSince == nil && !ended }
}

extension FeedSimulation {
    /// Frames per second of the bundled media, for the frame counts of the reports.
    static let framesPerSecond = 30.0
    /// How often, at most, a player's timers look again as its playhead nears what arrived of a
    /// segment still on its way. It runs dry only on reaching it: at a first frame nothing but the
    /// key frame is there, and a segment arriving faster than it plays must not count as a stall.
    static let dryGrain = 0.02

    func mount(_ id: PlayerID, card: String, video: URL) {
        let stream = models.media.streams[video.absoluteString]
        var player = SimPlayer(card: card, stream: stream)
        player.mountedAt = now
        players[id] = player
        mounts += 1
        peakMounted = max(peakMounted, players.count)
        recorder.mounted(id, card: card)
        guard let stream else {
            inbox.append(.player(id, .failed("the simulation has no media for '\(video.absoluteString)'")))
            return
        }
        readNext(id, stream: stream)
    }

    /// Reads the next resource of the player's start (manifest, playlist, init, first segment).
    private func readNext(_ id: PlayerID, stream: SimStream) {
        guard let player = players[id], !player.stopped else { return }
        switch player.step {
        case .manifest:
            startReading(id, key: "\(stream.url)|manifest")
            read("\(stream.url)|manifest", url: stream.url, kind: .playlist, bytes: stream.manifestBytes, by: .player(id))
        case .playlist:
            let variant = stream.variants[player.variant]
            guard variant.playlistBytes > 0 else { return advance(id, to: .initSection, stream: stream) }
            startReading(id, key: stream.playlistKey(player.variant))
            read(stream.playlistKey(player.variant), url: variant.name, kind: .playlist, bytes: variant.playlistBytes, by: .player(id))
        case .initSection:
            let variant = stream.variants[player.variant]
            guard variant.initBytes > 0 else { return advance(id, to: .segments, stream: stream) }
            startReading(id, key: stream.initKey(player.variant))
            read(stream.initKey(player.variant), url: variant.name + "#init", kind: .initSection, bytes: variant.initBytes, by: .player(id))
        case .segments:
            readAhead(id)
        }
    }

    private func startReading(_ id: PlayerID, key: String) {
        players[id]?.currentKey = key
    }

    private func advance(_ id: PlayerID, to step: SimPlayer.Step, stream: SimStream) {
        players[id]?.step = step
        if step == .playlist { players[id]?.variant = startVariant(of: stream) }
        readNext(id, stream: stream)
    }

    /// The variant a play starts on, as the resolver chooses it: with adaptive bitrate, among the
    /// variants whose start is cached first; by what the estimate and latency afford.
    func startVariant(of stream: SimStream) -> Int {
        guard stream.variants.count > 1 else { return 0 }
        let ladder = stream.variants.map { (bandwidth: $0.bandwidth, resolution: $0.resolution) }
        var current = constraints
        if let adaptive = constraints.adaptive {
            current.bandwidthBitsPerSecond = adaptive.affordable(estimate, latency: estimator.latency)
            let cached = stream.variants.indices.filter { index in
                VariantSelector.fits(0, stream.variants[index].resolution, current)
                    && entries[stream.segmentKey(index, 0)]?.complete == true
            }
            if let choice = VariantSelector.selectIndex(cached.map { ladder[$0] }, constraints: current) { return cached[choice] }
        }
        return VariantSelector.selectIndex(ladder, constraints: current) ?? 0
    }

    /// A whole resource arrived for a player.
    func playerRead(_ id: PlayerID, key: String) {
        guard var player = players[id], !player.stopped, let stream = player.stream else { return }
        player.currentKey = nil
        switch player.step {
        case .manifest:
            players[id] = player
            advance(id, to: .playlist, stream: stream)
        case .playlist:
            players[id] = player
            advance(id, to: .initSection, stream: stream)
        case .initSection:
            players[id] = player
            advance(id, to: .segments, stream: stream)
        case .segments:
            player.fetching = false
            player.downloaded += 1
            player.partial = 0
            players[id] = player
            if !player.opened { playerFirstBytes(id, key: key) }
            advancePlayhead(id)
            resumeIfRefilled(id)
            readAhead(id)
            reschedule(id)
        }
    }

    /// The start of the first segment arrived: the first frame decodes.
    func playerFirstBytes(_ id: PlayerID, key: String) {
        guard var player = players[id], !player.stopped, !player.opened else { return }
        player.opened = true
        player.openedAt = now
        player.decodeDue = now + models.timing.openAndDecodeMs / 1000
        players[id] = player
        reschedule(id)
    }

    /// Asks for the next segment when the buffer policy says so, at the variant the adaptive rule
    /// chooses, and lets the download policy grant it (today's grants it at once); under the link
    /// scheduler, reads what is cached or on its way and leaves the rest to the scheduler.
    func readAhead(_ id: PlayerID) {
        guard var player = players[id], !player.stopped, !player.fetching, player.step == .segments,
              let stream = player.stream, !player.isComplete else { return }
        if schedulerDecides {
            if let variant = availableVariant(stream, segment: player.downloaded) {
                fetchSegment(id, variant: variant)
            } else {
                scheduleLink()
            }
            return
        }
        let wants = buffer.shouldRead(buffered: .seconds(player.buffered), packets: 0, wasReading: player.reading,
                                      prepared: !player.everPlayed)
        player.reading = wants
        guard wants else {
            players[id] = player
            return
        }
        let index = player.downloaded
        if index == 0 {
            player.startEstimate = estimate
            if stream.switches, let adaptive = constraints.adaptive {
                player.abr = ABRPolicy(ladder: stream.variants.map { ABRRung(bandwidth: $0.bandwidth, resolution: $0.resolution) },
                                       constraints: constraints, parameters: adaptive, start: player.variant)
            }
        } else if var abr = player.abr {
            let input = ABRInput(segment: index, segmentDuration: .seconds(stream.segmentDurations[index]),
                                 buffered: player.moves ? .seconds(player.buffered) : nil, stalls: player.rebuffers,
                                 estimate: estimate, lastThroughput: recentThroughput, latency: estimator.latency,
                                 sharers: max(1, players.values.filter { $0.abr != nil && $0.moves }.count),
                                 now: .seconds(now))
            let decision = abr.decide(input)
            if decision.variant != player.variant {
                let from = stream.variants[player.variant].name, to = stream.variants[decision.variant].name
                player.switches.append(ABRReport.Switch(segment: index, from: from, to: to, reason: decision.reason.rawValue))
                record(.variantSwitch(card: CardID(player.card), segment: index, from: from, to: to, reason: decision.reason.rawValue))
                player.variant = decision.variant
            }
            player.abr = abr
        }
        player.asks = player.variant
        players[id] = player
        scheduleLink()
    }

    /// Reads the player's next segment at `variant` (a change of variant is reported as the
    /// adaptive rule's switches are).
    func fetchSegment(_ id: PlayerID, variant chosen: Int) {
        guard var player = players[id], let stream = player.stream else { return }
        let index = player.downloaded
        if index == 0 {
            player.startEstimate = estimate
        } else if chosen != player.variant {
            let from = stream.variants[player.variant].name, to = stream.variants[chosen].name
            player.switches.append(ABRReport.Switch(segment: index, from: from, to: to, reason: "scheduler"))
            record(.variantSwitch(card: CardID(player.card), segment: index, from: from, to: to, reason: "scheduler"))
        }
        player.variant = chosen
        readPlaylist(of: stream, variant: chosen, by: .switchPlaylist(id))
        player.fetching = true
        player.segmentVariants.append(player.variant)
        let variant = stream.variants[player.variant]
        let key = stream.segmentKey(player.variant, index)
        player.currentKey = key
        let bytes = variant.segmentBytes[index]
        let mark = index == 0 && !player.opened ? models.timing.firstFrameBytes(of: bytes) : nil
        players[id] = player
        read(key, url: variant.segmentURLs[index], kind: .segment, bytes: bytes, by: .player(id), mark: mark)
    }

    /// The last segment's own throughput while it is fresh (`abr.throughputMaxAge`).
    private var recentThroughput: Int? {
        guard let last = lastThroughput, let maxAge = constraints.adaptive?.throughputMaxAge,
              now - last.at <= maxAge.seconds else { return nil }
        return last.bitsPerSecond
    }

    func play(_ id: PlayerID, previewLimit: Double?) {
        guard var player = players[id], !player.stopped, !player.ended else { return }
        advancePlayhead(id)
        player = players[id]!
        // TTFF counts from the play the first frame answers, as the engine's players do.
        if !player.playing { player.playRequest = now }
        player.playing = true
        player.everPlayed = true
        player.previewLimit = previewLimit
        player.previewReported = false
        player.clock = now
        if !player.framed, player.prerolled { player.firstFrameDue = now + models.timing.showPreparedMs / 1000 }
        players[id] = player
        readAhead(id)
        reschedule(id)
    }

    func pause(_ id: PlayerID) {
        guard players[id] != nil else { return }
        advancePlayhead(id)
        endStall(id)
        players[id]?.playing = false
        reschedule(id)
    }

    /// Unmounts: stops reading, reports what it did, and is gone.
    func stop(_ id: PlayerID) {
        guard var player = players[id], !player.stopped else { return }
        advancePlayhead(id)
        endStall(id)
        player = players[id]!
        player.stopped = true
        players[id] = player
        if let key = player.currentKey { abandon(key, by: .player(id)) }
        var report = PlayerReport(card: player.card, url: player.stream?.url ?? "")
        report.frames = Int((player.playhead * Self.framesPerSecond).rounded())
        report.ttff = player.ttff
        report.rebuffers = player.rebuffers
        report.rebufferMs = player.rebufferSeconds * 1000
        report.stalls = player.rebuffers
        report.stallMs = player.rebufferSeconds * 1000
        report.ended = player.ended
        report.previewElapsed = player.previewReported
        report.playedSeconds = player.playhead
        if let stream = player.stream, stream.variants.count > 1 {
            let segments = player.segmentVariants.enumerated().map { index, variant in
                ABRReport.Segment(index: index, variant: stream.variants[variant].name, kbps: stream.variants[variant].bandwidth / 1000,
                                  seconds: stream.segmentDurations[index])
            }
            let start = player.segmentVariants.first ?? player.variant
            report.abr = ABRReport(estimateKbps: estimate / 1000, startEstimateKbps: player.startEstimate / 1000,
                                   startVariant: stream.variants[start].name, adaptive: stream.switches, segments: segments,
                                   switches: player.switches)
        }
        players[id] = nil
        recorder.stopped(id, report: report)
        inbox.append(.player(id, .stopped))
    }

    /// How much of the segment on its way its demuxer has read, as media seconds.
    func refreshPartial(_ id: PlayerID) {
        guard var player = players[id], let stream = player.stream else { return }
        player.partial = 0
        if player.fetching, player.step == .segments, let key = player.currentKey, let transfer = inFlight[key],
           let info = transfers[transfer], info.total > 0, stream.segmentDurations.indices.contains(player.downloaded) {
            let demuxed = models.timing.demuxed(link.received(transfer) + info.offset, of: info.total)
            player.partial = models.timing.playableShare(demuxed, of: info.total) * stream.segmentDurations[player.downloaded]
        }
        players[id] = player
    }

    /// Moves a playing player's playhead to now (not past what arrived, nor the end).
    func advancePlayhead(_ id: PlayerID) {
        refreshPartial(id)
        guard var player = players[id] else { return }
        if player.moves {
            let limit = min(player.downloadedMedia, player.duration)
            player.playhead = min(limit, player.playhead + max(0, now - player.clock))
        }
        player.clock = now
        players[id] = player
    }

    /// A stalled player that has `playback.bufferWatermarkMs` again (or the rest of its video),
    /// or `playback.fastResumeMs` arriving fast enough (`BufferPolicy`), goes on.
    private func resumeIfRefilled(_ id: PlayerID) {
        guard let player = players[id], let since = player.stalledSince else { return }
        // It ran dry with nothing ahead, so all it has arrived during the stall.
        if buffer.mayResumeAfterStall(buffered: .seconds(player.buffered), packets: 0, ended: player.isComplete,
                                      stalled: .seconds(now - since), gained: .seconds(player.buffered)) {
            endStall(id)
        }
    }

    private func endStall(_ id: PlayerID) {
        guard var player = players[id], let since = player.stalledSince else { return }
        let waited = now - since
        player.stalledSince = nil
        player.rebufferSeconds += waited
        player.clock = now
        players[id] = player
        record(.stall(card: CardID(player.card), ms: waited * 1000))
    }

    /// What is due for a player now: its first frame, its preview limit, its end, running dry,
    /// or reading again.
    func playerTimer(_ id: PlayerID) {
        advancePlayhead(id)
        guard var player = players[id], !player.stopped else { return }
        if let due = player.decodeDue, due <= now + 1e-9 {
            player.decodeDue = nil
            player.decoded = true
            if player.playing {
                player.firstFrameDue = now
            } else if preroll, !player.prerolled {
                player.prerolled = true
                players[id] = player
                inbox.append(.player(id, .prerolled))
            }
        }
        if let due = player.firstFrameDue, due <= now + 1e-9, player.playing, !player.framed {
            player.firstFrameDue = nil
            player.framed = true
            player.clock = now
            let total = (now - (player.playRequest ?? now)) * 1000
            player.ttff = TTFFBreakdown(firstFrameMs: total, totalMs: total)
            players[id] = player
            record(.firstFrame(card: CardID(player.card), ttffMs: total, phases: player.ttff!))
            inbox.append(.player(id, .firstFrame))
        }
        players[id] = player
        if player.moves {
            if let limit = player.previewLimit, !player.previewReported, player.playhead >= limit - 1e-9 {
                players[id]?.previewReported = true
                players[id]?.playing = false
                inbox.append(.player(id, .previewElapsed))
            } else if player.playhead >= player.duration - 1e-9, player.isComplete {
                players[id]?.ended = true
                players[id]?.playing = false
                inbox.append(.player(id, .ended))
            } else if player.playhead >= player.downloadedMedia - 1e-9, !player.isComplete {
                players[id]?.stalledSince = now
                players[id]?.rebuffers += 1
                inbox.append(.player(id, .stalled))
            }
        }
        resumeIfRefilled(id)
        readAhead(id)
        reschedule(id)
    }

    /// Puts the player's next due time on the agenda (older ones become stale).
    func reschedule(_ id: PlayerID) {
        refreshPartial(id)
        guard var player = players[id], !player.stopped else { return }
        player.version += 1
        var due: [Double] = []
        if let decode = player.decodeDue { due.append(decode) }
        if let first = player.firstFrameDue, player.playing { due.append(first) }
        // A stalled player on a segment still arriving looks again for the watermark.
        if player.stalledSince != nil, player.fetching { due.append(now + 0.05) }
        if player.moves {
            let ahead = player.downloadedMedia - player.playhead
            if let limit = player.previewLimit, !player.previewReported { due.append(player.clock + max(0, limit - player.playhead)) }
            if player.isComplete {
                due.append(player.clock + max(0, player.duration - player.playhead))
            } else {
                // More arrives while a segment is on its way: look again as the playhead nears it.
                due.append(player.clock + (player.fetching ? max(Self.dryGrain, ahead - Self.dryGrain) : max(0, ahead)))
                // Just past the low watermark, so the buffer is below it when the timer fires.
                if !player.fetching, !player.reading { due.append(player.clock + max(0, ahead - buffer.minBuffer.seconds) + 1e-4) }
            }
        }
        players[id] = player
        if let next = due.min() { agenda.add(.player(id, version: player.version), at: max(now, next)) }
    }
}
