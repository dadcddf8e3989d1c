import Foundation
import ReelCore
import ReelFeed
import ReelMedia
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// The preroll the feed session relies on for fast starts: a mounted player decodes its first
/// frame and holds it; the first play hands it to the renderer, then decoding goes on; the frames
/// shown are exactly the reference frames, also when the pool took the decoder away between the
/// preroll and the play (the held frame is shown once, the replay after it skips it).
@Suite("Player preroll")
struct PlayerPrerollTests {
    /// Patient: a starved test machine must not cut a healthy transfer (the watchdog has tests of its own).
    static let engine = TransferEngine(options: .patient)

    /// Frame hashes in the order the renderer got them.
    final class Hashes: Sendable {
        private let list = Locked<[String]>([])
        var all: [String] { list.withLock { $0 } }
        var callback: @Sendable (FrameHash) -> Void { { [self] hash in list.withLock { $0.append(hash.md5) } } }
    }

    static func options(preroll: Bool, hashes: Bool = true) -> PlayerOptions {
        var options = PlayerOptions()
        options.mode = .fast
        options.frameHashes = hashes
        options.preroll = preroll
        return options
    }

    static func sample(_ name: String) throws -> (entry: String, reference: [String]) {
        let sample = try #require(try SampleIndex.load().samples.first { $0.name == name })
        let rendition = try #require(sample.renditions.first)
        return (sample.entry, try SampleIndex.referenceHashes(rendition.reference))
    }

    /// Reads events until one matches; nil (and a recorded issue) if the stream ends first.
    static func next(_ events: inout AsyncStream<PlayerEvent>.Iterator, _ match: (PlayerEvent) -> Bool) async -> PlayerEvent? {
        while let event = await events.next() {
            if match(event) { return event }
        }
        Issue.record("the player's events ended first")
        return nil
    }

    @Test("a prerolled player shows the reference frames from the held first one", arguments: ["s01", "s02"])
    func prerolledFramesMatchTheReference(name: String) async throws {
        let (entry, reference) = try Self.sample(name)
        try await withSampleServer { server in
            let hashes = Hashes()
            let player = Player(card: "s0/0", input: server.url(for: entry),
                                factory: URLDataSourceFactory(engine: Self.engine, allowLocalFiles: false),
                                pool: DecoderPool(capacity: 1), options: Self.options(preroll: true), onFrameHash: hashes.callback)
            var events = player.events.makeAsyncIterator()
            player.prepare()
            _ = await Self.next(&events) { if case .prerolled = $0 { true } else { false } }
            #expect(hashes.all.isEmpty, "a held frame is not handed over before the play")
            player.play()
            let first = await Self.next(&events) { if case .firstFrame = $0 { true } else { false } }
            if case .firstFrame(let ttff)? = first {
                // Opening and the decoder were done before the play; only the hand-over counts.
                #expect(ttff.manifestMs == 0 && ttff.openMs == 0 && ttff.codecOpenMs == 0, "\(ttff)")
            }
            _ = await Self.next(&events) { if case .ended = $0 { true } else { false } }
            let report = await player.stop()
            #expect(hashes.all == reference, "\(name): frames after a preroll differ from the reference")
            #expect(report.frames == reference.count && report.error == nil)
        }
    }

    @Test("a held frame survives the pool taking the decoder: shown once, then the rest")
    func heldFrameAfterAPreemption() async throws {
        let (entry, reference) = try Self.sample("s01")
        let other = try Self.sample("s02")
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            let factory = URLDataSourceFactory(engine: Self.engine, allowLocalFiles: false)
            let hashes = Hashes()
            let mounted = Player(card: "s0/0", input: server.url(for: entry), factory: factory, pool: pool,
                                 options: Self.options(preroll: true), onFrameHash: hashes.callback)
            var events = mounted.events.makeAsyncIterator()
            mounted.prepare()
            _ = await Self.next(&events) { if case .prerolled = $0 { true } else { false } }

            // Another card plays: a playing request takes the mounted card's decoder.
            let playing = Player(card: "s1/0", input: server.url(for: other.entry), factory: factory, pool: pool,
                                 options: Self.options(preroll: true, hashes: false))
            var playingEvents = playing.events.makeAsyncIterator()
            playing.play()
            _ = await Self.next(&events) { if case .preempted = $0 { true } else { false } }
            _ = await Self.next(&playingEvents) { if case .ended = $0 { true } else { false } }
            _ = await playing.stop()

            mounted.play()
            _ = await Self.next(&events) { if case .ended = $0 { true } else { false } }
            let report = await mounted.stop()
            #expect(hashes.all == reference, "frames after a preroll and a preemption differ from the reference")
            #expect(report.preemptions == 1 && report.error == nil)
        }
    }
}
