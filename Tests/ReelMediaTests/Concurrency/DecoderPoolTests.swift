import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing
@testable import ReelMedia

/// The decoder pool with real FFmpeg decoders: reuse across packagings, reconfiguration, waiting,
/// preemption, flushing on release, and the low-end pool of one.
@Suite("Decoder pool")
struct DecoderPoolTests {
    @Test func h264StreamsOfEveryPackagingShareOneFlushedDecoder() async throws {
        let pool = DecoderPool(capacity: 1)
        // Three MPEG-TS streams (Annex B) of different picture sizes, then fMP4 streams and a DASH
        // one, whose avcC extradata differ (s08 is 720x720) but whose packets reach the decoder
        // as Annex B without extradata, as the MPEG-TS ones do.
        var decoders: [Int] = []
        for name in ["s01", "s07", "s14", "s02", "s12", "s08", "s04"] {
            let ticket = DecoderTicket(card: name)
            decoders.append(try await pool.acquire(ticket, for: try await MediaTestSupport.streamParameters(name)).id)
            await pool.release(ticket)
        }
        #expect(Set(decoders).count == 1)
        let stats = await pool.statistics
        #expect(stats.created == 1 && stats.reused == 6 && stats.reconfigured == 0, "\(stats)")
        #expect(stats.idleMatchAcquireMs.count == 6)
        #expect(stats.breaches == 0 && stats.maxLive == 1)
    }

    @Test func playersOfOneFormatReuseOneDecoderAndMatchTheReferences() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            for name in ["s01", "s11", "s13"] {
                try await playToEnd(name, server: server, pool: pool)
            }
        }
        let stats = await pool.statistics
        #expect(stats.created == 1 && stats.reused == 2 && stats.reconfigured == 0, "\(stats)")
    }

    @Test func mpegTSAndFMP4PlayersShareOneDecoderAndMatchTheReferences() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            // s01: MPEG-TS (Annex B); s02: fMP4 (avcC, converted to Annex B); s04: DASH (avcC);
            // s08: fMP4 with other parameter sets; s01 again. One flushed decoder plays them all.
            for name in ["s01", "s02", "s04", "s08", "s01"] {
                try await playToEnd(name, server: server, pool: pool)
            }
        }
        let stats = await pool.statistics
        #expect(stats.created == 1 && stats.reused == 4 && stats.reconfigured == 0, "\(stats)")
        #expect(stats.live == 1 && stats.breaches == 0)
    }

    @Test func parameterSetsInTheExtradataReconfigureAndFramesStillMatchTheReferences() async throws {
        let pool = DecoderPool(capacity: 1)
        // Probing (`avformat_find_stream_info`) gives an MPEG-TS stream Annex B extradata, its own
        // SPS and PPS, so streams of other pictures no longer share a decoder: each change reopens
        // the one decoder. The fMP4 stream (s02) is converted and has none.
        var options = MediaTestSupport.options()
        options.demux.findStreamInfo = true
        try await withSampleServer { server in
            for name in ["s01", "s07", "s02", "s01"] {
                try await playToEnd(name, server: server, pool: pool, options: options)
            }
        }
        let stats = await pool.statistics
        #expect(stats.created == 1 && stats.reconfigured == 3 && stats.reused == 0, "\(stats)")
        #expect(stats.live == 1 && stats.breaches == 0)
    }

    @Test func aRequestWaitsWhileEveryDecoderIsBusyAndGetsTheReleasedOne() async throws {
        let pool = DecoderPool(capacity: 1)
        var events = await pool.subscribe().makeAsyncIterator()
        let stream = try await MediaTestSupport.streamParameters("s01")
        let first = DecoderTicket(card: "first", priority: .playing)
        let held = try await pool.acquire(first, for: stream)
        let second = DecoderTicket(card: "second", priority: .playing)
        let waiting = Task { try await pool.acquire(second, for: stream) }
        _ = await nextPoolEvent(&events) { $0 == .waiting(card: "second") }
        #expect(second.decoder == nil)
        await pool.release(first)
        let granted = try await waiting.value
        #expect(granted === held)
        let stats = await pool.statistics
        #expect(stats.waits == 1 && stats.preemptions == 0 && stats.reused == 1 && stats.created == 1)
        await pool.release(second)
    }

    @Test func aCancelledWaitLeavesThePoolAsItWas() async throws {
        let pool = DecoderPool(capacity: 1)
        var events = await pool.subscribe().makeAsyncIterator()
        let stream = try await MediaTestSupport.streamParameters("s01")
        let first = DecoderTicket(card: "first", priority: .playing)
        _ = try await pool.acquire(first, for: stream)
        let waiting = Task { try await pool.acquire(DecoderTicket(card: "second", priority: .mounted), for: stream) }
        _ = await nextPoolEvent(&events) { $0 == .waiting(card: "second") }
        waiting.cancel()
        let error = await #expect(throws: ReelError.self) { try await waiting.value }
        #expect(error?.code == .cancelled)
        #expect(await pool.statistics.waiting == 0)
        await pool.release(first)
        #expect(await pool.statistics.held == 0)
    }

    @Test func preemptionTakesOnlyStrictlyLowerHoldersNeverAPlayer() async throws {
        let pool = DecoderPool(capacity: 1)
        var events = await pool.subscribe().makeAsyncIterator()
        let stream = try await MediaTestSupport.streamParameters("s01")
        let revoked = Locked<[String]>([])

        // A mounted card holds the only decoder; a card asked to play takes it.
        let mounted = DecoderTicket(card: "mounted", priority: .mounted) { revoked.withLock { $0.append("mounted") } }
        let decoder = try await pool.acquire(mounted, for: stream)
        let player = DecoderTicket(card: "player", priority: .playing)
        #expect(try await pool.acquire(player, for: stream) === decoder)
        #expect(mounted.isRevoked && mounted.decoder == nil)
        #expect(revoked.withLock { $0 } == ["mounted"])

        // Nobody takes it from a playing card: a mount waits, and so does another player.
        let mount = DecoderTicket(card: "mount", priority: .mounted)
        let waitingMount = Task { try await pool.acquire(mount, for: stream) }
        _ = await nextPoolEvent(&events) { $0 == .waiting(card: "mount") }
        let other = DecoderTicket(card: "other", priority: .playing)
        let waitingPlayer = Task { try await pool.acquire(other, for: stream) }
        _ = await nextPoolEvent(&events) { $0 == .waiting(card: "other") }
        #expect(player.decoder === decoder)

        // The player pauses: the waiting player (highest priority first) preempts it; the mount waits on.
        player.setPriority(.paused)
        await pool.reschedule()
        #expect(try await waitingPlayer.value === decoder)
        #expect(player.isRevoked)
        #expect(mount.decoder == nil)
        var stats = await pool.statistics
        #expect(stats.preemptions == 2 && stats.waiting == 1 && stats.breaches == 0)

        // The decoder comes back to the pool and goes to the mount.
        await pool.release(other)
        #expect(try await waitingMount.value === decoder)
        await pool.release(mount)
        stats = await pool.statistics
        #expect(stats.held == 0 && stats.live == 1)
    }

    @Test func theLowestPriorityHolderIsPreemptedFirst() async throws {
        let pool = DecoderPool(capacity: 2)
        let stream = try await MediaTestSupport.streamParameters("s01")
        let paused = DecoderTicket(card: "paused", priority: .paused)
        let mounted = DecoderTicket(card: "mounted", priority: .mounted)
        _ = try await pool.acquire(paused, for: stream)
        let mountedDecoder = try await pool.acquire(mounted, for: stream)
        let player = DecoderTicket(card: "player", priority: .playing)
        #expect(try await pool.acquire(player, for: stream) === mountedDecoder)
        #expect(mounted.isRevoked && !paused.isRevoked)
    }

    @Test func aHolderThatBeganPlayingCannotBePreempted() async throws {
        let pool = DecoderPool(capacity: 1)
        var events = await pool.subscribe().makeAsyncIterator()
        let stream = try await MediaTestSupport.streamParameters("s01")
        let holder = DecoderTicket(card: "holder", priority: .paused)
        _ = try await pool.acquire(holder, for: stream)
        #expect(holder.beginPlaying())
        let waiting = Task { try await pool.acquire(DecoderTicket(card: "late", priority: .playing), for: stream) }
        _ = await nextPoolEvent(&events) { $0 == .waiting(card: "late") }
        #expect(!holder.isRevoked)
        await pool.release(holder)
        _ = try await waiting.value
    }

    @Test func releaseFlushesTheDecoder() async throws {
        let pool = DecoderPool(capacity: 1)
        let stream = try await MediaTestSupport.streamParameters("s01")
        let path = PackagePaths.samples.appendingPathComponent(try MediaTestSupport.sample("s01").entry)
        let first = DecoderTicket(card: "first")
        let decoder = try await pool.acquire(first, for: stream)
        // Feed the decoder packets without taking their frames: it holds decoded frames.
        let pending = try await decoder.run(for: first) { decoder in
            try Self.feedPackets(from: path, to: decoder, count: 12)
        }
        #expect(pending == true, "the decoder should hold frames before the release")
        await pool.release(first)

        let second = DecoderTicket(card: "second")
        #expect(try await pool.acquire(second, for: stream) === decoder)
        let flushed = await decoder.run(for: second) { decoder in decoder.receive(into: Frame()) == .needsInput }
        #expect(flushed == true, "a released decoder comes back flushed")
        #expect(await decoder.run(for: first) { _ in true } == nil, "a released ticket cannot use the decoder")
        await pool.release(second)
    }

    @Test func aLowEndDeviceHasAPoolOfOne() async throws {
        var config = ReelConfig()
        config.device.isLowEnd = true
        config.decoder.poolSize = 4
        let pool = DecoderPool(config: config)
        #expect(pool.capacity == config.decoder.lowEndPoolSize)
        #expect(pool.capacity == 1)
        var events = await pool.subscribe().makeAsyncIterator()
        let ts = try await MediaTestSupport.streamParameters("s01")
        let mp4 = try await MediaTestSupport.streamParameters("s02")
        let first = DecoderTicket(card: "first", priority: .playing)
        _ = try await pool.acquire(first, for: ts)
        let second = DecoderTicket(card: "second", priority: .playing)
        let waiting = Task { try await pool.acquire(second, for: mp4) }
        _ = await nextPoolEvent(&events) { $0 == .waiting(card: "second") }
        await pool.release(first)
        _ = try await waiting.value
        let stats = await pool.statistics
        // MPEG-TS and fMP4 share the decoder: the waiting request reuses it as it is released.
        #expect(stats.maxLive == 1 && stats.created == 1 && stats.reused == 1 && stats.reconfigured == 0 && stats.waits == 1)
        await pool.release(second)
    }

    // MARK: - Helpers

    /// Plays a sample to its end through the pool in fast mode and checks its frames.
    func playToEnd(_ name: String, server: CDNServer, pool: DecoderPool,
                   options: PlayerOptions = MediaTestSupport.options()) async throws {
        let frames = FrameLog()
        let player = Player(card: name, input: try MediaTestSupport.url(server, name), factory: MediaTestSupport.factory(),
                            pool: pool, options: options, onFrameHash: frames.callback)
        var events = EventReader(player)
        player.play()
        let end = await events.next { $0.endsPlayback }
        let report = await player.stop()
        #expect(end?.isEnded == true, "\(name): \(report.error ?? "no error")")
        #expect(frames.all == (try MediaTestSupport.reference(name)), "\(name): frames differ from the reference")
    }

    /// Sends `count` video packets of `path` to `decoder` without receiving; true when the
    /// decoder then has a frame ready.
    static func feedPackets(from path: URL, to decoder: Decoder, count: Int) throws -> Bool {
        let opener = MediaOpener(
            factory: URLDataSourceFactory(engine: MediaTestSupport.engine, allowLocalFiles: true),
            cancellation: Cancellation(), log: RequestLog(), constraints: PlaybackConstraints(),
            demux: DemuxOptions(), includeAudio: false)
        var timeline = TTFFTimeline()
        let media = try opener.open(path, timeline: &timeline)
        var reader = PacketReader(media)
        var notes = NoteList()
        var sent = 0
        let packet = Packet()
        while sent < count, try reader.read(into: packet, notes: &notes) != .endOfStream {
            defer { packet.unref() }
            guard packet.streamIndex == media.video.index else { continue }
            if decoder.send(packet) == .full { break }
            sent += 1
        }
        let frame = Frame()
        return decoder.receive(into: frame) == .frame
    }
}
