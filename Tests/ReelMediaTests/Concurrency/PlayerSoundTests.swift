import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelMedia

/// A player's sound: decoded with its video, resampled to the speaker's format, the same PCM the
/// ffmpeg CLI makes of the sample; kept bounded; and the sync policy that keeps a speaker with the
/// picture, on numbers.
@Suite("PlayerSound")
struct PlayerSoundTests {
    /// Interleaved s16 samples from little-endian bytes.
    static func samples(_ data: Data) -> [Int16] {
        data.withUnsafeBytes { bytes in
            stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        }
    }

    /// s01 (MPEG-TS with AAC, mono 44.1 kHz) played to its end by a player decoding its sound to
    /// mono 48 kHz over the loopback CDN: every sample is what `ffmpeg -ac 1 -ar 48000 -f s16le`
    /// makes of the same playlist, bit for bit.
    @Test func theSoundOfASampleIsFFmpegsOwnDecode() async throws {
        let sample = try MediaTestSupport.sample("s01")
        try #require(sample.hasAudio)
        let folder = try makeScratchFolder("reel-sound")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = folder.appendingPathComponent("s01.s16").path
        let ffmpeg = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), [
            "-v", "error", "-i", PackagePaths.samples.appendingPathComponent(sample.entry).path,
            "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "s16le", "-y", reference,
        ])
        try #require(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        let expected = Self.samples(try Data(contentsOf: URL(fileURLWithPath: reference)))
        try #require(expected.count > 48_000 * 10, "ffmpeg decoded \(expected.count) samples")

        let pool = DecoderPool(capacity: 1)
        let heard = try await withSampleServer { server -> (SoundChunk?, Int) in
            var options = MediaTestSupport.options(hashes: false)
            // Room for the whole sample: nothing may be dropped before the test reads it.
            options.sound = SoundOptions(format: SoundFormat(sampleRate: 48_000, channels: 1), capacity: .seconds(30))
            let player = Player(card: "s0/0", input: try MediaTestSupport.url(server, "s01"), factory: MediaTestSupport.factory(),
                                pool: pool, options: options)
            let sound = try #require(player.sound)
            var events = EventReader(player)
            player.play()
            let end = await events.next { $0.endsPlayback }
            #expect(end?.isEnded == true, "\(String(describing: end))")
            let chunk = sound.read(from: 0, maxFrames: .max)
            let dropped = sound.droppedFrames
            let report = await player.stop()
            #expect(report.error == nil && report.frames == 420, "\(report)")
            return (chunk, dropped)
        }
        let (chunk, dropped) = heard
        let pcm = try #require(chunk?.samples)
        #expect(dropped == 0)
        #expect(pcm.count == expected.count, "the player decoded \(pcm.count) samples, ffmpeg \(expected.count)")
        // Sample for sample: the same decoder and the same resampler with the same defaults.
        #expect(expected.contains { abs($0) > 1_000 }, "ffmpeg's decode is silent")
        let differs = zip(pcm, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(differs == nil, "sample \(differs?.offset ?? -1) differs: \(differs.map { "\($0.element)" } ?? "")")
        // The first sample's media time: the stream's own clock, as the picture's playhead reads it.
        #expect(abs((chunk?.time ?? 0) - 1.44) < 0.05, "\(String(describing: chunk?.time))")
    }

    /// What a speaker reads follows the player: nothing before the first frame; then a moving
    /// picture with its sound decoded from where it stands; paused, a picture that holds still
    /// and no longer plays; stopped, nothing plays.
    @Test func theSoundFollowsThePlayer() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            var options = MediaTestSupport.options(mode: .realTime, hashes: false)
            options.sound = SoundOptions(format: SoundFormat(sampleRate: 48_000, channels: 2))
            let player = Player(card: "s0/0", input: try MediaTestSupport.url(server, "s01"), factory: MediaTestSupport.factory(),
                                pool: pool, options: options)
            let sound = try #require(player.sound)
            #expect(sound.playhead == nil && !sound.isPlaying)
            var events = EventReader(player)
            let asked = ContinuousClock.now
            player.play()
            await events.next { $0.isFirstFrame }
            #expect(sound.isPlaying)
            let first = try #require(sound.playhead)
            // The picture's media time on the stream's clock (its first frame is at 1.467 s), moved on
            // by at most the time since the play was asked for (the test may hear the event late).
            let since = (ContinuousClock.now - asked) / .seconds(1)
            #expect(first >= 1.4 && first <= 1.47 + since, "the picture's media time on the stream's clock: \(first), \(since) s after play()")
            // Once the read-ahead is full (seconds past the picture; TS interleaves the sound with
            // the video), the sound where the picture stands is decoded: stereo, from there on.
            if !events.seen.contains(where: \.isBufferFull) { await events.next { $0.isBufferFull } }
            let playhead = try #require(sound.playhead)
            let chunk = try #require(sound.read(from: playhead, maxFrames: 4_800))
            #expect(abs(chunk.time - playhead) < 0.05 && !chunk.samples.isEmpty && chunk.samples.count % 2 == 0, "\(chunk.time)")
            player.pause()
            await events.next { $0.isPaused }
            #expect(!sound.isPlaying)
            let held = try #require(sound.playhead)
            #expect(sound.playhead == held)
            _ = await player.stop()
            #expect(!sound.isPlaying)
        }
    }

    /// The buffer holds at most its capacity: the oldest sound goes first, counted.
    @Test func theBufferDropsTheOldestPastItsCapacity() {
        let format = SoundFormat(sampleRate: 8_000, channels: 1)
        let buffer = SoundBuffer(SoundOptions(format: format, capacity: .milliseconds(250)))
        for index in 0..<10 {
            buffer.push(SoundChunk(time: Double(index) * 0.1, samples: [Int16](repeating: Int16(index), count: 800)))
        }
        // 250 ms of 8 kHz is 2,000 frames: the last three chunks (2,400) do not fit, so two stay.
        #expect(buffer.counts.held == 1_600 && buffer.counts.dropped == 6_400 && buffer.counts.decoded == 8_000)
        // Reading from a time skips what lies before it and goes on in order.
        let chunk = buffer.read(from: 0.85, maxFrames: 600)
        #expect(abs((chunk?.time ?? 0) - 0.85) < 1e-9 && chunk?.samples.count == 600)
        #expect(chunk?.samples.first == 8 && chunk?.samples.last == 9)
        #expect(buffer.read(from: 0, maxFrames: 1_000)?.samples.count == 600)
        #expect(buffer.read(from: 0, maxFrames: 1_000) == nil)
    }

    /// The speaker's sync on numbers: it starts where the picture is, tops up to its lead, goes on
    /// from where it left, skips ahead when the sound fell behind past the tolerance and holds
    /// back with silence when it ran ahead.
    @Test func syncKeepsTheSoundWithThePicture() {
        let format = SoundFormat(sampleRate: 8_000, channels: 1)
        var sync = SoundSync(format: format, tolerance: 0.1, lead: 0.12)
        // Start: the picture at 5 s, 20 ms queued (the device's buffer): sound from 5.02 s, 100 ms of it (800 frames at 8 kHz).
        var plan = sync.plan(playhead: 5, queued: 0.02)
        #expect(plan.silence == 0 && abs(plan.from - 5.02) < 1e-9 && plan.frames == 800)
        sync.queued(SoundChunk(time: 5.02, samples: [Int16](repeating: 1, count: 800)))
        #expect(abs((sync.next ?? 0) - 5.12) < 1e-9 && sync.skips == 1)
        // A frame later, in step: go on from where the last read ended.
        plan = sync.plan(playhead: 5.016, queued: 0.104)
        #expect(plan.silence == 0 && abs(plan.from - 5.12) < 1e-9 && plan.frames == 128)
        sync.queued(SoundChunk(time: 5.12, samples: [Int16](repeating: 1, count: 128)))
        // The picture jumped 300 ms ahead: skip to it.
        plan = sync.plan(playhead: 5.4, queued: 0.1)
        #expect(abs(plan.from - 5.5) < 1e-9 && plan.frames == 160 && sync.skips == 2)
        sync.queued(SoundChunk(time: 5.5, samples: [Int16](repeating: 1, count: 160)))
        // The picture stalled while the speaker played on: hold the sound back with silence.
        plan = sync.plan(playhead: 5.3, queued: 0.02)
        #expect(plan.silence == 1_600 && abs(plan.from - 5.52) < 1e-9 && plan.frames == 0 && sync.holds == 1)
        // Nothing decoded there yet: the next plan starts from the picture again once behind.
        sync.reset()
        #expect(sync.plan(playhead: 6, queued: 0).from == 6)
    }
}
