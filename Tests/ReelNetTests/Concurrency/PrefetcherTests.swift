import Foundation
import ReelCore
import ReelStore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Synchronization
import Testing

/// The prefetcher against the CDN simulator on loopback: order, the cap, cancel and resume,
/// preemption, dedupe with playback, yielding to a starving player, the ledger against the bill,
/// failures, and a flood. A transfer a test must act on while it runs stalls on the simulator
/// (a scheduled fault on its first request) until the prefetcher stops it, so no timing decides
/// the outcome; waits are on events, the cache and the simulator's bill, never on sleeps.
@Suite("Prefetcher")
struct PrefetcherTests {
    static let slow = NetworkProfile(name: "slow", bandwidthKbps: 400)

    /// Makes the first request for `path` stall after `bytes` body bytes (the connection stays
    /// open, the harness's low-speed window is a minute); the next request is served whole.
    static func stallFirstRequest(_ harness: CacheHarness, _ path: String, after bytes: Int) {
        harness.server.injectFault(.stall(afterBytes: bytes), path: "/\(path)", count: 1)
    }

    /// Waits until the cache's transfer of `path` has received `bytes` from the network.
    static func waitForBytes(_ harness: CacheHarness, _ cache: Cache, _ path: String, _ bytes: Int64) async -> Bool {
        let key = harness.url(path).absoluteString
        return await cache.progress.wait { cache.bytesInFlight(of: key) == bytes }
    }

    @Test func requestsStartByCategoryThenRankThenArrival() async throws {
        let files = try PrefetchFixture.sample("s01", "s02", "s05", "s07", "s11", "s13")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache) { $0.prefetch.maxConcurrent = 1 }
            // Paused while every request arrives, so they all queue before the first starts.
            await prefetcher.setPlaybackStarving(true)
            let plan: [(String, PrefetchCategory, Int)] = [
                ("s01", .background, 0), ("s02", .nearby, 3), ("s05", .imminent, 1),
                ("s07", .nearby, 1), ("s11", .imminent, 0), ("s13", .page, 0),
            ]
            for (name, category, rank) in plan {
                await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("\(name)/index.m3u8"), category: category,
                                                         rank: rank, tag: name))
            }
            #expect(await prefetcher.queuedCount == 6)
            #expect(await prefetcher.activeCount == 0)
            await prefetcher.setPlaybackStarving(false)
            #expect(await log.idle(prefetcher))
            let expected = ["s11", "s05", "s07", "s02", "s13", "s01"]
            #expect(await log.named("started").compactMap(\.tag) == expected)
            #expect(await log.named("done").compactMap(\.tag) == expected)
            // The simulator saw the videos in that order too.
            var seen: [String] = []
            for entry in harness.requests.entries {
                let name = String(entry.path.dropFirst().prefix { $0 != "/" })
                if seen.last != name { seen.append(name) }
            }
            #expect(seen == expected)
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test(arguments: [false, true])
    func theCapIsNeverExceeded(lowEnd: Bool) async throws {
        let names = ["s01", "s05", "s07", "s11", "s13", "s14"]
        let files = try PrefetchFixture.sample("s01", "s05", "s07", "s11", "s13", "s14")
        try await CacheHarness.with(files, profile: NetworkProfile(name: "throttled", bandwidthKbps: 4_000)) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache) { config in
                config.device.isLowEnd = lowEnd
                config.prefetch.segments.nearby = 2
            }
            let cap = lowEnd ? 1 : 2
            #expect(prefetcher.limits.cap == cap)
            for (rank, name) in names.enumerated() {
                await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("\(name)/index.m3u8"), category: .nearby, rank: rank))
            }
            #expect(await log.idle(prefetcher))
            let done = await log.named("done")
            #expect(done.count == names.count)
            // Low-end devices fetch `lowEndSegments` (1) whatever the category's count (2).
            for event in done {
                guard case .done(_, let outcome) = event.kind else { continue }
                #expect(outcome.items.filter { $0.kind == .segment }.count == (lowEnd ? 1 : 2), "\(event.videoURL)")
            }
            let bill = harness.server.bill()
            print("cap \(cap): peak \(bill.peakConcurrentConnections) concurrent connections, \(bill.connections) connections, \(bill.requests) requests")
            #expect(bill.peakConcurrentConnections <= cap, "the cap of \(cap) was exceeded")
            #expect(bill.peakConcurrentConnections == cap, "the transfers never overlapped: the test did not exercise the cap")
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func aCancelStopsTheTransferMidSegmentAndALaterRequestResumesIt() async throws {
        let files = try PrefetchFixture.sample("s01")
        let segment = PrefetchFixture.size(files, "s01/seg_000.ts")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            Self.stallFirstRequest(harness, "s01/seg_000.ts", after: 16_384)
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache)
            let url = harness.url("s01/index.m3u8")
            let key = harness.url("s01/seg_000.ts").absoluteString
            let id = await prefetcher.enqueue(PrefetchRequest(videoURL: url, segments: 1, tag: "card-1"))
            let server = harness.server
            // The segment is streaming (16 kB of it arrived, the rest is held back): cancel it.
            #expect(await Self.waitForBytes(harness, cache, "s01/seg_000.ts", 16_384))
            let cancelledAt = ContinuousClock.now
            await prefetcher.cancel(id)
            #expect(await log.wait(for: "cancelled", of: id))
            let toEvent = ContinuousClock.now - cancelledAt
            #expect(await server.waitForBill { $0.paths["/s01/seg_000.ts"]?.inFlightRequests == 0 } != nil)
            let toServer = ContinuousClock.now - cancelledAt
            let sent = server.bill().paths["/s01/seg_000.ts"]?.bodyBytes ?? 0
            #expect(sent < segment, "the whole segment was sent: the cancel did not stop the transfer")
            let cancelled = await log.named("cancelled").first
            #expect(cancelled?.tag == "card-1" && cancelled?.videoURL == url)
            try await CacheHarness.settle(cache)
            guard case .partial(let kept) = cache.status(of: key) else {
                Issue.record("no partial entry after the cancel: \(cache.status(of: key))")
                return
            }
            #expect(kept == 16_384 && kept <= Int64(sent))
            print("cancel mid-segment: cancelled event after \(toEvent), server saw the request end within \(toServer); "
                  + "\(sent) of \(segment) bytes sent, \(kept) kept as a partial entry")
            // A later request resumes the partial entry with a Range request.
            let again = await prefetcher.enqueue(PrefetchRequest(videoURL: url, segments: 1))
            #expect(await log.wait(for: "done", of: again))
            let requests = await harness.finishedRequests(for: "/s01/seg_000.ts")
            #expect(requests.count == 2, "\(requests)")
            #expect(requests.last?.range == "bytes=\(kept)-", "resume sent \(String(describing: requests.last?.range))")
            try await CacheHarness.settle(cache)
            #expect(cache.status(of: key) == .complete(bytes: Int64(segment)))
            let (bytes, metrics) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("s01/seg_000.ts"), kind: .segment))
            #expect(bytes == files["s01/seg_000.ts"] && metrics.cacheHit)
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func aHigherCategorySuspendsARunningOneWhichResumesWithARangeRequest() async throws {
        let files = try PrefetchFixture.sample("s01", "s11")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            Self.stallFirstRequest(harness, "s01/seg_000.ts", after: 8_192)
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache) { $0.prefetch.maxConcurrent = 1 }
            let background = await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s01/index.m3u8"), category: .background))
            #expect(await Self.waitForBytes(harness, cache, "s01/seg_000.ts", 8_192))
            // Same category or lower: it waits.
            let page = await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s11/index.m3u8"), category: .background, rank: 5))
            #expect(await prefetcher.state(of: page) == .queued)
            await prefetcher.reprioritize(page, category: .imminent, rank: 0)
            #expect(await log.wait(for: "suspended", of: background))
            #expect(await log.wait(for: "done", of: page))
            #expect(await log.wait(for: "done", of: background))
            let order = await log.events.filter { $0.name != "queued" }.map { "\($0.name) \($0.id)" }
            #expect(order == ["started \(background)", "suspended \(background)", "started \(page)", "done \(page)",
                              "started \(background)", "done \(background)"])
            let segment = await harness.finishedRequests(for: "/s01/seg_000.ts")
            // Logged as each ends: the cut first request may end after the resumed one.
            #expect(segment.count == 2 && segment.contains { $0.range == nil && $0.outcome == .stalled && $0.bodyBytes == 8_192 }
                        && segment.contains { $0.range?.hasPrefix("bytes=") == true && $0.outcome == .complete }, "\(segment)")
            let ledger = await prefetcher.ledger()
            #expect(ledger.suspended == 1 && ledger.started == 3 && ledger.completed == 2)
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    /// A player that opened a segment and stopped reading (a prepared player rests after a
    /// little; an unmounted one leaves): prefetch follows its transfer and pulls the rest, so the
    /// segment is cached whole after one request, even when the player then goes away.
    @Test func aSegmentPlaybackIsFetchingIsFollowedToItsEndNotFetchedAgain() async throws {
        let files = try PrefetchFixture.sample("s01")
        try await CacheHarness.with(files, profile: Self.slow) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache)
            let spec = DataSpec(url: harness.url("s01/seg_000.ts"), kind: .segment)
            // A player opens the first segment and reads its start; the transfer is in flight.
            let player = SourceBox(harness.factory(cache).makeDataSource(cancellation: Cancellation()))
            let head = try await BlockingPool.shared.run { () -> [UInt8] in
                _ = try player.source.open(spec)
                return try player.source.read(upTo: 8_000)
            }
            #expect(cache.status(of: spec.cacheKey) == .inFlight(origin: .playback))
            let id = await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s01/index.m3u8"), segments: 1))
            #expect(await log.wait(for: "done", of: id))
            // The player goes away without reading on: the segment is whole in the cache.
            try await BlockingPool.shared.run { player.source.close() }
            let size = Int64(try #require(files["s01/seg_000.ts"]).count)
            #expect(await cache.progress.wait { cache.status(of: spec.cacheKey) == .complete(bytes: size) },
                    "the segment is \(cache.status(of: spec.cacheKey)) after prefetch was done")
            let (cached, _) = try await CacheHarness.read(harness.factory(cache), spec)
            #expect(Array(cached.prefix(head.count)) == head && cached == files["s01/seg_000.ts"])
            #expect(harness.server.bill().paths["/s01/seg_000.ts"]?.requests == 1)
            #expect(await harness.finishedRequests(for: "/s01/seg_000.ts").count == 1)
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func aPlayOfASegmentPrefetchIsFetchingSharesItsTransfer() async throws {
        let files = try PrefetchFixture.sample("s01")
        let segment = PrefetchFixture.size(files, "s01/seg_000.ts")
        try await CacheHarness.with(files, profile: Self.slow) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache)
            let id = await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s01/index.m3u8"), segments: 1))
            let server = harness.server
            #expect(await server.waitForBill { $0.paths["/s01/seg_000.ts"]?.bodyBytes ?? 0 > 0 } != nil)
            let spec = DataSpec(url: harness.url("s01/seg_000.ts"), kind: .segment)
            let (played, _) = try await CacheHarness.read(harness.factory(cache), spec)
            #expect(played == files["s01/seg_000.ts"])
            #expect(await log.wait(for: "done", of: id))
            #expect(server.bill().paths["/s01/seg_000.ts"]?.requests == 1)
            try await CacheHarness.settle(cache)
            let entry = cache.peek(spec.cacheKey)
            #expect(entry?.origin == .prefetch && entry?.usedByPlayback == true)
            let ledger = await prefetcher.ledger()
            #expect(ledger.usedBytes == Int64(segment), "playback read the prefetched segment: \(ledger)")
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func playbackReusesTheConnectionPrefetchOpened() async throws {
        let files = try PrefetchFixture.sample("s01")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache)
            let id = await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s01/index.m3u8"), segments: 1))
            #expect(await log.wait(for: "done", of: id))
            // The player's first miss goes through the same engine: the connection is warm.
            let spec = DataSpec(url: harness.url("s01/seg_001.ts"), kind: .segment)
            let (bytes, metrics) = try await CacheHarness.read(harness.factory(cache), spec)
            #expect(bytes == files["s01/seg_001.ts"] && !metrics.cacheHit)
            #expect(metrics.reusedConnection, "playback opened a connection of its own")
            #expect(harness.server.bill().connections == 1)
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func prefetchPausesWhileAPlayerStarvesAndResumesAfter() async throws {
        let files = try PrefetchFixture.sample("s01", "s07", "s13")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            for name in ["s01", "s07"] { Self.stallFirstRequest(harness, "\(name)/seg_000.ts", after: 4_096) }
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache)
            var ids: [PrefetchRequestID] = []
            for (rank, name) in ["s01", "s07", "s13"].enumerated() {
                ids.append(await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("\(name)/index.m3u8"), rank: rank)))
            }
            let server = harness.server
            #expect(await Self.waitForBytes(harness, cache, "s01/seg_000.ts", 4_096))
            #expect(await Self.waitForBytes(harness, cache, "s07/seg_000.ts", 4_096))
            // The playing video's buffer falls under playback.bufferWatermarkMs (1000 ms).
            await prefetcher.reportBuffer(player: "card-9", bufferedMs: 300)
            #expect(await log.wait(for: "suspended", of: ids[0]))
            #expect(await log.wait(for: "suspended", of: ids[1]))
            #expect(await prefetcher.activeCount == 0)
            #expect(await prefetcher.queuedCount == 3)
            #expect(await server.waitForBill { $0.paths.values.allSatisfy { $0.inFlightRequests == 0 } } != nil)
            let pausedBill = server.bill()
            let started = await log.named("started").count
            // Another request while starving waits too.
            ids.append(await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s13/index.m3u8"), category: .imminent)))
            #expect(await prefetcher.activeCount == 0)
            #expect(await prefetcher.queuedCount == 4)
            #expect(await log.named("started").count == started)
            #expect(server.bill().requests == pausedBill.requests)
            await prefetcher.reportBuffer(player: "card-9", bufferedMs: 2_500)
            #expect(await log.idle(prefetcher))
            #expect(await log.named("done").count == 4)
            for name in ["s01", "s07"] {
                let requests = await harness.finishedRequests(for: "/\(name)/seg_000.ts")
                #expect(requests.count == 2 && requests.last?.range?.hasPrefix("bytes=") == true, "\(name): \(requests)")
            }
            print("paused while starving: \(pausedBill.bodyBytes) bytes before the pause, \(server.bill().bodyBytes) at the end")
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    /// The feed's players decode video only: a prefetcher told so leaves DASH's audio
    /// representation out; one for players that decode audio (`reel prefetch`) takes it.
    @Test(arguments: [true, false])
    func audioIsPrefetchedOnlyForPlayersThatReadIt(includeAudio: Bool) async throws {
        let files = try PrefetchFixture.sample("s04")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache, includeAudio: includeAudio)
            await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s04/manifest.mpd"), category: .imminent))
            #expect(await log.idle(prefetcher))
            #expect(await log.named("done").count == 1)
            let paths = harness.server.bill().paths.keys
            // In s04/manifest.mpd, representation 2 (stream2) is the audio.
            #expect(paths.contains { $0.contains("stream2") } == includeAudio, "\(paths.sorted())")
            #expect(paths.contains { $0.contains("chunk-stream") }, "no video segment was prefetched: \(paths.sorted())")
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func theLedgerAgreesWithTheBillAndFollowsWhatPlaybackReads() async throws {
        let files = try PrefetchFixture.sample("s01", "s02", "s05")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache)
            for (name, segments) in [("s01", 2), ("s02", 2), ("s05", 1)] {
                await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("\(name)/index.m3u8"), segments: segments))
            }
            #expect(await log.idle(prefetcher))
            try await CacheHarness.settle(cache)
            let billed = Int64(harness.server.bill().bodyBytes)
            var ledger = await prefetcher.ledger()
            #expect(ledger.fetchedBytes == billed)
            #expect(await log.named("done").reduce(0) { $0 + $1.bytes } == billed)
            #expect(ledger.queued == 3 && ledger.started == 3 && ledger.completed == 3)
            #expect(ledger.usedBytes == 0 && ledger.unreadBytes == billed && ledger.wastedBytes == billed)
            // A player reads s01's playlist and first two segments: from the cache.
            var played: Int64 = 0
            for (name, kind) in [("s01/index.m3u8", ResourceKind.playlist), ("s01/seg_000.ts", .segment), ("s01/seg_001.ts", .segment)] {
                let (bytes, metrics) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url(name), kind: kind))
                #expect(bytes == files[name] && metrics.cacheHit)
                played += Int64(bytes.count)
            }
            try await CacheHarness.settle(cache)
            ledger = await prefetcher.ledger()
            #expect(Int64(harness.server.bill().bodyBytes) == billed)
            #expect(ledger.usedBytes == played)
            #expect(ledger.unreadBytes == billed - played && ledger.wastedBytes == billed - played)
            print("ledger: \(ledger)")
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func prefetchedEntriesEvictedUnreadAreCountedAsWaste() async throws {
        let files = try PrefetchFixture.sample("s01", "s07", "s13", "s14")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache(maxBytes: 700_000)
            let evictions = EventLog()
            cache.addObserver { evictions.add($0) }
            let (prefetcher, _) = PrefetchFixture.prefetcher(harness, cache) { $0.prefetch.maxConcurrent = 1 }
            for (rank, name) in ["s01", "s07", "s13", "s14"].enumerated() {
                await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("\(name)/index.m3u8"), rank: rank, segments: 2))
            }
            await prefetcher.waitUntilIdle()
            try await CacheHarness.settle(cache)
            let ledger = await prefetcher.ledger()
            let evicted = evictions.events.reduce(Int64(0)) { total, event in
                guard case .evicted(_, let bytes, .prefetch, false, .capacity) = event else { return total }
                return total + bytes
            }
            #expect(evicted > 0, "nothing was evicted: the test did not exercise eviction")
            #expect(ledger.evictedUnreadBytes == evicted)
            #expect(ledger.fetchedBytes == Int64(harness.server.bill().bodyBytes))
            #expect(ledger.unreadBytes == cache.entries.filter { $0.origin == .prefetch }.reduce(0) { $0 + $1.length })
            #expect(ledger.wastedBytes == ledger.evictedUnreadBytes + ledger.unreadBytes)
            #expect(ledger.fetchedBytes == ledger.wastedBytes, "nothing was played, so every byte is waste")
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func failingAndUnreachableURLsAreRetriedThenDroppedWithoutBlockingTheQueue() async throws {
        let files = try PrefetchFixture.sample("s01", "s05")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            harness.server.injectFault(.status(503), path: "/s05/index.m3u8", count: 1_000)
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache) { config in
                config.prefetch.maxConcurrent = 1
                config.prefetch.retries = 1
            }
            let unreachable = URL(string: "http://127.0.0.1:1/v/index.m3u8")!
            let requests = [(unreachable, "unreachable"), (harness.url("missing/index.m3u8"), "missing"),
                            (harness.url("s05/index.m3u8"), "503"), (harness.url("s01/index.m3u8"), "good")]
            for (rank, (url, tag)) in requests.enumerated() {
                await prefetcher.enqueue(PrefetchRequest(videoURL: url, rank: rank, tag: tag))
            }
            // Refused at once: not http(s), a negative segment count, a category not configured.
            await prefetcher.enqueue(PrefetchRequest(videoURL: URL(fileURLWithPath: "/tmp/x.m3u8"), tag: "file"))
            await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("s01/index.m3u8"), segments: -1, tag: "negative"))
            #expect(await log.idle(prefetcher))
            let events = await log.events
            func story(_ tag: String) -> [String] {
                events.filter { $0.tag == tag }.map { event in
                    if case .failed(let error, _, let retrying) = event.kind { return "failed \(error.code)\(retrying ? " retrying" : "")" }
                    return event.name
                }
            }
            #expect(story("unreachable") == ["queued", "started", "failed connectionFailed retrying", "started", "failed connectionFailed"])
            #expect(story("missing") == ["queued", "started", "failed notFound"])
            #expect(story("503") == ["queued", "started", "failed httpStatus retrying", "started", "failed httpStatus"])
            #expect(story("good") == ["queued", "started", "done"])
            #expect(story("file") == ["failed unsupportedScheme"])
            #expect(story("negative") == ["failed invalidInput"])
            for event in events where event.name == "failed" {
                guard case .failed(let error, _, _) = event.kind else { continue }
                #expect(error.message.contains(event.videoURL.absoluteString) || error.message.contains(event.videoURL.path),
                        "the error does not name the input: \(error.message)")
            }
            let ledger = await prefetcher.ledger()
            #expect(ledger.failed == 5 && ledger.retried == 2 && ledger.completed == 1)
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }

    @Test func aFloodOfTenThousandRequestsStaysBoundedAndTheActorResponsive() async throws {
        let files = try PrefetchFixture.sample("s01", "s07")
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            let (prefetcher, log) = PrefetchFixture.prefetcher(harness, cache)
            // Two imminent prefetches whose segments stall (until the harness's one-minute
            // low-speed window) hold both slots while the flood arrives behind them, however
            // long the flood takes on a loaded machine or under the thread sanitizer.
            for name in ["s01", "s07"] {
                harness.server.injectFault(.stall(afterBytes: 4_096), path: "/\(name)/seg_000.ts", count: 1)
                await prefetcher.enqueue(PrefetchRequest(videoURL: harness.url("\(name)/index.m3u8"), category: .imminent))
            }
            #expect(await log.wait(count: 2, of: "started"))
            let count = 10_000
            let clock = ContinuousClock()
            var ids: [PrefetchRequestID] = []
            ids.reserveCapacity(count)
            let enqueueTime = await clock.measure {
                for index in 0..<count {
                    let url = harness.url("flood/v\(index)/index.m3u8")
                    ids.append(await prefetcher.enqueue(PrefetchRequest(videoURL: url, category: index % 2 == 0 ? .page : .background,
                                                                        rank: index % 100, tag: "f\(index)")))
                }
            }
            #expect(await prefetcher.queuedCount == count)
            #expect(await prefetcher.activeCount == 2)
            let pingTime = await clock.measure { _ = await prefetcher.ledger() }
            let moveTime = await clock.measure {
                for (index, id) in ids.enumerated() { await prefetcher.reprioritize(id, category: .page, rank: (index * 37) % 1000) }
            }
            let storage = await prefetcher.heapStorage
            #expect(storage <= 2 * count + 64, "the heap holds \(storage) entries for \(count) queued")
            let cancelTime = await clock.measure {
                for id in ids.prefix(count / 2) { await prefetcher.cancel(id) }
            }
            #expect(await prefetcher.queuedCount == count / 2)
            #expect(await prefetcher.heapStorage <= count + 64)
            await prefetcher.cancelAll()
            #expect(await log.idle(prefetcher))
            #expect(await prefetcher.heapStorage <= 64)
            #expect(await log.wait(count: count + 2, of: "cancelled"))
            let ledger = await prefetcher.ledger()
            #expect(ledger.queued == count + 2 && ledger.cancelled == count + 2 && ledger.started == 2)
            // None of the flood reached the network.
            #expect(!harness.requests.entries.contains { $0.path.hasPrefix("/flood") })
            func perOp(_ duration: Duration) -> String {
                let micros = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
                return String(format: "%.1f us", micros / Double(count))
            }
            print("flood of \(count): enqueue \(perOp(enqueueTime))/request (awaited from a task), reprioritize \(perOp(moveTime)), "
                  + "cancel \(perOp(cancelTime * 2)); a ledger round trip with \(count) queued took \(pingTime.formatted(.units(allowed: [.microseconds], fractionalPart: .show(length: 1)))); heap \(storage) entries")
            await prefetcher.shutdown()
            try await CacheHarness.close(cache)
        }
    }
}
