import Foundation
import ReelCore
import ReelManifest
import ReelNet
import Synchronization
import Testing

/// A play takes its seat at a session's download policy through its factory, and asks for each
/// segment's turn before it opens it: a media playlist alone as well as a ladder.
@Suite("Segment turns")
struct SegmentTurnsTests {
    /// Records what a play tells its seat, and answers every turn with the variant asked.
    final class Recording: SegmentTurns {
        struct Joined: Sendable {
            var ladder: [Int]
            var durations: [Double]
            var start: Int
        }

        let joined = Mutex<[Joined]>([])
        let turns = Mutex<[(segment: Int, proposed: Int)]>([])
        let fills = Mutex<[@Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double)]>([])
        let grantsAsked = true

        func join(ladder: [Int], durations: [Double], start: Int, probe: @escaping @Sendable () -> ABRPlayhead?,
                  cached: @escaping @Sendable (Int, Int) -> Int?, received: (@Sendable (Int, Int) -> Int?)?,
                  fill: (@Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double))?) {
            joined.withLock { $0.append(Joined(ladder: ladder, durations: durations, start: start)) }
            if let fill { fills.withLock { $0.append(fill) } }
        }

        func turn(segment index: Int, previous: Int, proposed: Int, cancellation: Cancellation) -> Int {
            turns.withLock { $0.append((index, proposed)) }
            return proposed
        }

        func arrived(segment index: Int, bytes: Int, seconds: Double) {}
        func leave() {}
    }

    /// Serves one playlist's text for any URL, with a seat.
    struct SeatedFactory: DataSourceFactory {
        let bytes: [UInt8]
        let seat: Recording
        func makeDataSource(cancellation: Cancellation) -> any DataSource { MemoryDataSource(bytes) }
        var segmentTurns: (any SegmentTurns)? { seat }
    }

    @Test("a media playlist alone takes a seat of one variant, asks before each segment, and reports no adaptive play")
    func aMediaPlaylistTakesASeat() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + String(repeating: "#EXTINF:2.0,\nseg.ts\n", count: 1)
            + "#EXTINF:1.5,\nlast.ts\n#EXT-X-ENDLIST\n"
        let seat = Recording()
        let url = try #require(URL(string: "http://cdn.test/v/index.m3u8"))
        let resolved = try InputResolver(factory: SeatedFactory(bytes: Array(text.utf8), seat: seat), cancellation: Cancellation(),
                                         log: RequestLog()).resolve(url)
        let controller = try #require(resolved.adaptive)
        #expect(controller.seatOnly)
        #expect(controller.playReport == nil)
        let joined = try #require(seat.joined.withLock { $0.first })
        #expect(joined.ladder == [0] && joined.start == 0)
        #expect(joined.durations == [2.0, 1.5])
        // The demuxer opening the second segment asks for its turn first (at the one variant).
        let playlist = try #require(resolved.playlist)
        controller.opened(playlist.segments[1].dataSpec)
        let turns = seat.turns.withLock { $0 }
        #expect(turns.count == 1 && turns.first?.segment == 1 && turns.first?.proposed == 0)
    }

    /// The cache harness's sources, with a seat.
    struct SeatedCacheFactory: DataSourceFactory {
        let inner: CacheDataSourceFactory
        let seat: Recording
        func makeDataSource(cancellation: Cancellation) -> any DataSource { inner.makeDataSource(cancellation: cancellation) }
        var cacheContext: CacheContext? { inner.cacheContext }
        var segmentTurns: (any SegmentTurns)? { seat }
    }

    @Test("a fill reports a segment's bytes fetched over loopback, and none for one the cache holds whole")
    func aFillFromTheCacheReportsNoBytes() async throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg0.ts\n#EXTINF:2.0,\nseg1.ts\n#EXT-X-ENDLIST\n"
        try await CacheHarness.with(["v/index.m3u8": Array(text.utf8), "v/seg0.ts": CacheHarness.bytes(40_000)]) { harness in
            let cache = try await harness.openCache()
            let seat = Recording()
            let factory = SeatedCacheFactory(inner: harness.factory(cache), seat: seat)
            let url = harness.url("v/index.m3u8")
            // The segment's entry is whole once the cache says it stored it so.
            let stored = AsyncStream<Void>.makeStream()
            let observer = cache.addObserver { event in
                if case .stored(let key, _, _, true) = event, key.hasSuffix("seg0.ts") { stored.continuation.yield() }
            }
            defer { cache.removeObserver(observer) }
            // The fill belongs to the play's controller, which lives as long as the play.
            let controller = try await BlockingPool.shared.run {
                try InputResolver(factory: factory, cancellation: Cancellation(), log: RequestLog()).resolve(url).adaptive
            }
            let play = try #require(controller)
            let fill = try #require(seat.fills.withLock { $0.first })
            let first = try await BlockingPool.shared.run { try fill(0, 0, Cancellation()).bytes }
            var whole = stored.stream.makeAsyncIterator()
            _ = await whole.next()
            let again = try await BlockingPool.shared.run { try fill(0, 0, Cancellation()).bytes }
            withExtendedLifetime(play) {}
            #expect(first == 40_000)
            #expect(again == 0)
        }
    }

    @Test("without a seat a media playlist has no controller, as before")
    func withoutASeatNothingChanges() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg.ts\n#EXT-X-ENDLIST\n"
        let url = try #require(URL(string: "http://cdn.test/v/index.m3u8"))
        let resolved = try InputResolver(factory: FixedBytesFactory(bytes: Array(text.utf8)), cancellation: Cancellation(),
                                         log: RequestLog()).resolve(url)
        #expect(resolved.adaptive == nil)
    }
}
