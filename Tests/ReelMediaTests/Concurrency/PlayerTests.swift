import Foundation
import ReelCore
import ReelNet
import ReelServer
import ReelTestSupport
import Synchronization
import Testing
@testable import ReelMedia

/// A card's player over real samples on loopback HTTP: pause keeps the position, stop releases,
/// the end and the preview limit are reported, buffering stops at the watermark.
@Suite("Player")
struct PlayerTests {
    @Test func pauseKeepsThePositionAndTheFramesAcrossItMatchTheReference() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            let frames = FrameLog()
            // Real-time pacing through the renderer's thread, on a clock that jumps to each due time.
            let player = Player(card: "c0/0", input: try MediaTestSupport.url(server, "s01"),
                                factory: MediaTestSupport.factory(), pool: pool,
                                options: MediaTestSupport.options(mode: .realTime), frameClock: ManualFrameClock(),
                                onFrameHash: frames.callback)
            frames.at(frame: 100) { player.pause() }
            var events = EventReader(player)
            player.play()
            let paused = await events.next(where: { $0.isPaused || $0.endsPlayback })
            let pausedAt = try #require(paused.flatMap { if case .paused(let at) = $0 { at } else { nil } }, "\(String(describing: paused))")
            #expect(pausedAt >= 100 && pausedAt < 420, "paused after frame \(pausedAt)")
            #expect(player.status.state == .paused)
            #expect(player.status.frames == pausedAt)
            #expect(frames.all.count == pausedAt)
            player.play()
            let end = await events.next { $0.endsPlayback }
            let report = await player.stop()
            #expect(end?.isEnded == true, "\(report.error ?? "")")
            let reference = try MediaTestSupport.reference("s01")
            #expect(frames.all.count == reference.count)
            #expect(frames.all == reference, "the frames across the pause differ from the reference")
            #expect(report.frames == reference.count && report.ended && report.preemptions == 0)
            #expect(report.stalls == 0, "a pause is not a stall")
        }
    }

    /// Without probing, the fMP4 card shares the MPEG-TS card's format: the preemption flushes the
    /// decoder and hands it over. With probing, the MPEG-TS stream has extradata of its own (its
    /// SPS and PPS) and the converted fMP4 one has none: the decoder is reopened each way.
    @Test(arguments: [(false, 0, 2), (true, 2, 0)])
    func aPreemptedPlayerResumesAtTheNextFrameOnASharedOrReopenedDecoder(probe: Bool, reconfigured: Int, reused: Int) async throws {
        let pool = DecoderPool(capacity: 1)
        var options = MediaTestSupport.options()
        options.demux.findStreamInfo = probe
        try await withSampleServer { server in
            let frames = FrameLog()
            let first = Player(card: "first", input: try MediaTestSupport.url(server, "s01"),
                               factory: MediaTestSupport.factory(), pool: pool, options: options,
                               onFrameHash: frames.callback)
            frames.at(frame: 75) { first.pause() }
            var firstEvents = EventReader(first)
            first.play()
            await firstEvents.next { $0.isPaused || $0.endsPlayback }

            // Another card plays an fMP4 stream: it takes the paused card's decoder.
            var otherOptions = options
            otherOptions.frameHashes = false
            let other = Player(card: "other", input: try MediaTestSupport.url(server, "s02"),
                               factory: MediaTestSupport.factory(), pool: pool, options: otherOptions)
            var otherEvents = EventReader(other)
            other.play()
            await firstEvents.next { $0.isPreempted }
            await otherEvents.next { $0.endsPlayback }
            _ = await other.stop()

            // The first card plays on from where it paused, replaying from its last key frame on a
            // decoder that decoded the other stream since.
            first.play()
            let end = await firstEvents.next { $0.endsPlayback }
            let report = await first.stop()
            #expect(end?.isEnded == true, "\(report.error ?? "")")
            #expect(frames.all == (try MediaTestSupport.reference("s01")), "frames after the preemption differ from the reference")
            #expect(report.preemptions == 1)
            let stats = await pool.statistics
            #expect(stats.preemptions == 1 && stats.created == 1 && stats.breaches == 0, "\(stats)")
            #expect(stats.reconfigured == reconfigured && stats.reused == reused, "\(stats)")
        }
    }

    /// A play and a pause that both land before the paused player resumes decoding still get
    /// their `.paused` (the preview limit pauses one this way when its clock jumps).
    @Test(.timeLimit(.minutes(1))) func aPlayAndAPauseAtOnceAreAnsweredWithPaused() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            let player = Player(card: "c0/0", input: try MediaTestSupport.url(server, "s01"),
                                factory: MediaTestSupport.factory(), pool: pool,
                                options: MediaTestSupport.options(mode: .realTime, hashes: false), frameClock: ManualFrameClock())
            var events = EventReader(player)
            player.play()
            await events.next { $0.isFirstFrame || $0.endsPlayback }
            player.pause()
            await events.next { $0.isPaused || $0.endsPlayback }
            for _ in 0..<3 {
                player.play()
                player.pause()
                let answer = await events.next { $0.isPaused || $0.endsPlayback }
                #expect(answer?.isPaused == true, "\(events.seen)")
            }
            #expect(player.status.state == .paused)
            _ = await player.stop()
        }
    }

    @Test func endedIsReportedAndTheDecoderGoesBackAtTheEnd() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            let player = Player(card: "c1/0", input: try MediaTestSupport.url(server, "s11"),
                                factory: MediaTestSupport.factory(), pool: pool, options: MediaTestSupport.options(hashes: false))
            var events = EventReader(player)
            player.play()
            let end = await events.next { $0.endsPlayback }
            let count = try #require(end.flatMap { if case .ended(let count) = $0 { count } else { nil } }, "\(String(describing: end))")
            #expect(count == 144)
            #expect(await pool.statistics.held == 0, "an ended player gives its decoder back before it is stopped")
            #expect(player.status.state == .ended)
            let report = await player.stop()
            #expect(report.ended && report.frames == 144 && report.error == nil)
            #expect(report.ttff.map { $0.totalMs > 0 } == true)
            let names = events.seen.map { String("\($0)".prefix { $0 != "(" }) }.filter { $0 != "bufferFull" }
            #expect(names == ["prepared", "firstFrame", "ended"])
        }
    }

    /// Packets that trickle in slower than they play freeze the picture: once the renderer has
    /// shown what it had, the player has run dry and rebuffers, even though a packet arrives now
    /// and then (s11 is 380 kbit/s; the link gives 200).
    @Test func aPlayerFedSlowerThanItPlaysRunsDryAndRebuffers() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer(profile: NetworkProfile(name: "200kbit", bandwidthKbps: 200)) { server in
            let player = Player(card: "s0/0", input: try MediaTestSupport.url(server, "s11"),
                                factory: MediaTestSupport.factory(), pool: pool,
                                options: MediaTestSupport.options(mode: .realTime, hashes: false))
            var events = EventReader(player)
            player.play()
            let event = await events.next { if case .rebuffered = $0 { true } else { $0.endsPlayback } }
            let report = await player.stop()
            let waited = try #require(event.flatMap { if case .rebuffered(let waited) = $0 { waited } else { nil } },
                                      "the player never rebuffered: \(String(describing: event)), \(report.rebuffers) rebuffers")
            #expect(waited > .zero)
            #expect(report.rebuffers >= 1)
            #expect(events.seen.contains { if case .stalled = $0 { true } else { false } }, "no stalled event before the rebuffer")
        }
    }

    @Test func stopMidReadReleasesTheDecoderAndClosesTheInput() async throws {
        let pool = DecoderPool(capacity: 1)
        var network = NetworkOptions()
        network.lowSpeedTimeMs = 120_000
        let engine = TransferEngine(options: network)
        try await withSampleServer { server in
            // The third segment stalls after a few bytes: the demuxer blocks inside a read.
            server.injectFault(.stall(afterBytes: 1000), path: "/streams/s12/seg_002.m4s")
            let opened = OpenSignal(path: "seg_002.m4s")
            let factory = ObservedFactory(base: URLDataSourceFactory(engine: engine, allowLocalFiles: false), signal: opened)
            let player = Player(card: "c2/0", input: try MediaTestSupport.url(server, "s12"), factory: factory,
                                pool: pool, options: MediaTestSupport.options(hashes: false))
            player.play()
            await opened.wait()
            let report = await player.stop()
            #expect(report.frames > 0 && !report.ended)
            #expect(report.error == nil, "a stop is not a failure: \(report.error ?? "")")
            #expect(!report.notes.contains { $0.contains("timed out") || $0.contains("timeout") }, "\(report.notes)")
            let stats = await pool.statistics
            #expect(stats.held == 0 && stats.releases == 1)
            #expect(player.status.state == .stopped)
        }
        engine.shutdownAsync()
    }

    @Test func previewElapsedCountsPlayingTimeOnTheInjectedClock() async throws {
        let pool = DecoderPool(capacity: 1)
        let clock = SteppedClock()
        try await withSampleServer { server in
            let player = Player(card: "c3/0", input: try MediaTestSupport.url(server, "s12"),
                                factory: MediaTestSupport.factory(), pool: pool,
                                options: MediaTestSupport.options(mode: .realTime, hashes: false),
                                frameClock: clock, clock: clock.manual)
            var events = EventReader(player)
            player.play(previewLimit: .seconds(3))
            await events.next { $0.isFirstFrame || $0.endsPlayback }
            clock.advance(by: .seconds(2))
            player.pause()
            await events.next { $0.isPaused || $0.endsPlayback }
            // Paused time does not count.
            clock.advance(by: .seconds(10))
            player.play()
            clock.advance(by: .seconds(1))
            let elapsed = await events.next { $0.isPreviewElapsed || $0.endsPlayback }
            let watched = try #require(elapsed.flatMap { if case .previewElapsed(let watched) = $0 { watched } else { nil } },
                                       "\(String(describing: elapsed))")
            #expect(watched == .seconds(3))
            await events.next { $0.isPaused || $0.endsPlayback }
            #expect(events.seen.filter(\.isPreviewElapsed).count == 1)
            let report = await player.stop()
            #expect(report.previewElapsed && !report.ended)
        }
        clock.advance(by: .seconds(3600))
    }

    @Test func bufferedMediaGrowsWhilePausedUpToTheWatermark() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            var options = MediaTestSupport.options(mode: .realTime, hashes: false)
            options.buffer = BufferPolicy(maxBuffer: .seconds(2), minBuffer: .seconds(1))
            let player = Player(card: "c4/0", input: try MediaTestSupport.url(server, "s12"),
                                factory: MediaTestSupport.factory(), pool: pool, options: options)
            var events = EventReader(player)
            #expect(player.status.buffered == .zero)
            // Mounted, not playing: the demuxer reads ahead to the watermark and rests.
            player.prepare()
            let full = await events.next { $0.isBufferFull || $0.endsPlayback }
            let buffered = try #require(full.flatMap { if case .bufferFull(let buffered) = $0 { buffered } else { nil } },
                                        "\(String(describing: full))")
            #expect(buffered >= .seconds(2) && buffered < .milliseconds(2200), "rested at \(buffered)")
            #expect(player.status.buffered == buffered)
            #expect(player.status.frames == 0 && player.status.state == .ready)
            #expect(!events.seen.contains { $0.isFirstFrame })
            player.play()
            await events.next { $0.isFirstFrame || $0.endsPlayback }
            let report = await player.stop()
            #expect(report.frames > 0 && report.error == nil)
        }
    }
}
