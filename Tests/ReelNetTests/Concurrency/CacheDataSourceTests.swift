import Foundation
import ReelCore
import ReelStore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// The disk cache and `CacheDataSource` over real HTTP from the CDN simulator.
@Suite("Disk cache and CacheDataSource")
struct CacheDataSourceTests {
    @Test func aMissIsFetchedAndCachedAndTheNextReadIsAHitWithoutTheNetwork() async throws {
        let blob = CacheHarness.bytes(300_000)
        try await CacheHarness.with(["a.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let factory = harness.factory(cache)
            let spec = DataSpec(url: harness.url("a.bin"), kind: .segment)
            let (first, firstMetrics) = try await CacheHarness.read(factory, spec)
            #expect(first == blob)
            #expect(!firstMetrics.cacheHit && firstMetrics.cacheHitBytes == 0 && firstMetrics.httpStatus == 200)
            try await CacheHarness.settle(cache)
            #expect(cache.status(of: spec.cacheKey) == .complete(bytes: 300_000))
            let (second, secondMetrics) = try await CacheHarness.read(factory, spec)
            #expect(second == blob)
            #expect(secondMetrics.cacheHit && secondMetrics.cacheHitBytes == 300_000)
            #expect(await harness.finishedRequests(for: "/a.bin").count == 1)
            let stats = cache.statistics()
            #expect(stats.counters.hits == 1 && stats.counters.misses == 1)
            #expect(stats.counters.hitBytes == 300_000 && stats.counters.missBytes == 300_000)
            try await CacheHarness.close(cache)
        }
    }

    @Test func aRestartKeepsEntriesTheirLRUOrderAndTheCounters() async throws {
        let files = ["a.bin": CacheHarness.bytes(10_000, seed: 1), "b.bin": CacheHarness.bytes(20_000, seed: 2),
                     "c.bin": CacheHarness.bytes(30_000, seed: 3)]
        try await CacheHarness.with(files) { harness in
            var cache = try await harness.openCache()
            for name in ["a.bin", "b.bin", "c.bin", "a.bin"] {
                _ = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url(name), kind: .segment))
                try await CacheHarness.settle(cache)
            }
            let before = cache.entries.map(\.key)
            try await CacheHarness.close(cache)
            let warnings = WarningLog()
            cache = try await harness.openCache(warnings: warnings)
            #expect(warnings.lines.isEmpty)
            #expect(cache.entries.map(\.key) == before)
            #expect(before.last == harness.url("a.bin").absoluteString)
            #expect(cache.statistics().counters.hits == 1 && cache.statistics().counters.misses == 3)
            let (bytes, metrics) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("b.bin"), kind: .segment))
            #expect(bytes == files["b.bin"] && metrics.cacheHit)
            #expect(await harness.finishedRequests(for: "/b.bin").count == 1)
            try await CacheHarness.close(cache)
        }
    }

    @Test func byteRangesAreEntriesOfTheirOwnAndASeekReadsInsideOne() async throws {
        let blob = CacheHarness.bytes(100_000)
        try await CacheHarness.with(["r.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let factory = harness.factory(cache)
            let range = DataSpec(url: harness.url("r.bin"), offset: 20_000, length: 30_000, kind: .segment)
            #expect(try await CacheHarness.read(factory, range).0 == Array(blob[20_000..<50_000]))
            try await CacheHarness.settle(cache)
            #expect(cache.status(of: range.cacheKey) == .complete(bytes: 30_000))
            #expect(cache.status(of: DataSpec(url: harness.url("r.bin"), kind: .segment).cacheKey) == .absent)
            // A reader that seeks inside the entry keeps its key and reads from the cache.
            let (tail, metrics) = try await CacheHarness.read(factory, range.advanced(by: 10_000))
            #expect(tail == Array(blob[30_000..<50_000]))
            #expect(metrics.cacheHit)
            #expect(await harness.finishedRequests(for: "/r.bin").count == 1)
            #expect(await harness.finishedRequests(for: "/r.bin").first?.range == "bytes=20000-49999")
            try await CacheHarness.close(cache)
        }
    }

    @Test(arguments: ["truncated", "bit-flipped", "deleted"])
    func aDamagedContentFileIsEvictedAndRefetched(damage: String) async throws {
        let blob = CacheHarness.bytes(200_000)
        try await CacheHarness.with(["d.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let events = EventLog()
            cache.addObserver { events.add($0) }
            let spec = DataSpec(url: harness.url("d.bin"), kind: .segment)
            _ = try await CacheHarness.read(harness.factory(cache), spec)
            try await CacheHarness.settle(cache)
            let file = try #require(contentFiles(harness.cacheDirectory).first)
            var bytes = [UInt8](try Data(contentsOf: file))
            switch damage {
            case "truncated": bytes.removeLast(1000)
            case "bit-flipped": bytes[123_456] ^= 0x10
            default: try FileManager.default.removeItem(at: file)
            }
            if damage != "deleted" { try Data(bytes).write(to: file) }
            let (again, metrics) = try await CacheHarness.read(harness.factory(cache), spec)
            #expect(again == blob, "wrong bytes served after the file was \(damage)")
            #expect(!metrics.cacheHit)
            #expect(await harness.finishedRequests(for: "/d.bin").count == 2)
            #expect(events.events.contains { if case .evicted(_, _, _, _, .corrupt) = $0 { true } else { false } })
            try await CacheHarness.settle(cache)
            #expect(cache.verify(repair: false).isClean)
            try await CacheHarness.close(cache)
        }
    }

    @Test func aCorruptIndexIsReplacedByAnEmptyOneWithAWarning() async throws {
        let blob = CacheHarness.bytes(50_000)
        try await CacheHarness.with(["i.bin": blob]) { harness in
            var cache = try await harness.openCache()
            _ = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("i.bin"), kind: .segment))
            try await CacheHarness.close(cache)
            let index = harness.cacheDirectory.appendingPathComponent("index.sqlite")
            try Data(repeating: 0xAB, count: 8192).write(to: index)
            try? FileManager.default.removeItem(at: harness.cacheDirectory.appendingPathComponent("index.sqlite-wal"))
            let warnings = WarningLog()
            cache = try await harness.openCache(warnings: warnings)
            #expect(cache.isEnabled)
            #expect(cache.entries.isEmpty)
            #expect(warnings.lines.count == 1 && warnings.lines[0].contains("corrupt"), "\(warnings.lines)")
            #expect(contentFiles(harness.cacheDirectory).isEmpty, "orphaned content files were left behind")
            let (bytes, _) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("i.bin"), kind: .segment))
            #expect(bytes == blob)
            try await CacheHarness.settle(cache)
            #expect(cache.entries.count == 1)
            try await CacheHarness.close(cache)
        }
    }

    @Test func anUnusableFolderPlaysOnWithoutTheCacheAfterOneWarning() async throws {
        let blob = CacheHarness.bytes(40_000)
        try await CacheHarness.with(["u.bin": blob]) { harness in
            // A folder under a regular file can never be created (root ignores permission bits).
            let file = harness.cacheDirectory.appendingPathComponent("plain-file")
            try Data("x".utf8).write(to: file)
            let warnings = WarningLog()
            let directory = file.appendingPathComponent("cache")
            let cache = try await BlockingPool.shared.run { Cache.open(directory: directory, maxBytes: 1 << 20, logger: warnings.logger()) }
            #expect(!cache.isEnabled)
            #expect(warnings.lines.count == 1 && warnings.lines[0].contains(directory.path), "\(warnings.lines)")
            for _ in 0..<2 {
                let (bytes, metrics) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("u.bin"), kind: .segment))
                #expect(bytes == blob && !metrics.cacheHit)
            }
            #expect(await harness.finishedRequests(for: "/u.bin").count == 2)
            #expect(warnings.lines.count == 1)
            #expect(throws: ReelError.self) { try Cache.openOrThrow(directory: directory, maxBytes: 1 << 20) }
        }
    }

    @Test func aSecondProcessOrOpenOfTheSameFolderIsRefused() async throws {
        try await CacheHarness.with([:]) { harness in
            let cache = try await harness.openCache()
            let directory = harness.cacheDirectory
            let error = try await BlockingPool.shared.run { () -> ReelError? in
                do {
                    _ = try Cache.openOrThrow(directory: directory, maxBytes: 1 << 20)
                    return nil
                } catch let error as ReelError { return error }
            }
            #expect(error?.message.contains("in use by another reel process") == true, "\(String(describing: error))")
            try await CacheHarness.close(cache)
            let again = try await harness.openCache()
            #expect(again.isEnabled)
            try await CacheHarness.close(again)
        }
    }

    @Test func twoReadersOfTheSameKeyShareOneTransfer() async throws {
        let blob = CacheHarness.bytes(600_000)
        try await CacheHarness.with(["s.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let events = EventLog()
            cache.addObserver { events.add($0) }
            let spec = DataSpec(url: harness.url("s.bin"), kind: .segment)
            let prefetch = harness.factory(cache, origin: .prefetch)
            let playback = prefetch.withOrigin(.playback)
            // The first reader (prefetch) opens and reads a little: the transfer is in flight
            // until a reader pulls its end, so the second reader must follow it.
            let first = SourceBox(prefetch.makeDataSource(cancellation: Cancellation()))
            let head = try await BlockingPool.shared.run { () -> [UInt8] in
                _ = try first.source.open(spec)
                return try first.source.read(upTo: 50_000)
            }
            #expect(cache.status(of: spec.cacheKey) == .inFlight(origin: .prefetch))
            let (second, secondMetrics) = try await CacheHarness.read(playback, spec)
            let rest = try await BlockingPool.shared.run { () -> [UInt8] in
                defer { first.source.close() }
                return try first.source.read(upTo: .max)
            }
            #expect(head + rest == blob)
            #expect(second == blob)
            #expect(secondMetrics.cacheHitBytes > 0, "the follower's bytes did not come from the shared transfer")
            #expect(secondMetrics.bytes - secondMetrics.cacheHitBytes + (first.source.metrics.bytes - first.source.metrics.cacheHitBytes) == 600_000,
                    "network bytes counted twice or lost")
            #expect(await harness.finishedRequests(for: "/s.bin").count == 1, "\(harness.requests(for: "/s.bin")); leader attempts \(first.source.metrics.attempts)")
            try await CacheHarness.settle(cache)
            let entry = try #require(cache.peek(spec.cacheKey))
            #expect(entry.origin == .prefetch && entry.usedByPlayback && entry.isComplete)
            #expect(events.events.contains(.prefetchUsed(key: spec.cacheKey, bytes: 600_000)))
            try await CacheHarness.close(cache)
        }
    }

    /// A prefetch of `name` whose response stalls after `bytes` (so its transfer stays in flight),
    /// read that far and then cancelled without leaving: the transfer is closed to new readers but
    /// not settled until `leader` closes. `waits` logs the readers that wait for the settle.
    struct CancelledLeader {
        let leader: SourceBox
        let head: [UInt8]
        let waits = EventLog()
        let spec: DataSpec
        let factory: CacheDataSourceFactory

        init(_ harness: CacheHarness, _ cache: Cache, _ name: String, after bytes: Int) async throws {
            cache.addObserver { [waits] in if case .waitingForSettle = $0 { waits.add($0) } }
            harness.server.injectFault(.stall(afterBytes: bytes), path: "/\(name)", count: 1)
            let spec = DataSpec(url: harness.url(name), kind: .segment)
            let factory = harness.factory(cache, origin: .prefetch)
            let cancellation = Cancellation()
            let leader = SourceBox(factory.makeDataSource(cancellation: cancellation))
            head = try await BlockingPool.shared.run { () -> [UInt8] in
                _ = try leader.source.open(spec)
                return try leader.source.read(upTo: bytes)
            }
            cancellation.cancel()
            (self.leader, self.spec, self.factory) = (leader, spec, factory)
        }

        /// True once a reader waits for the settle.
        func waitForAWaitingReader() async -> Bool { await waits.list.wait { !$0.isEmpty } }

        func close() async throws { try await BlockingPool.shared.run { [leader] in leader.source.close() } }
    }

    @Test func aReaderArrivingAsTheOnlyReaderIsCancelledWaitsForTheSettleAndResumes() async throws {
        let blob = CacheHarness.bytes(300_000)
        try await CacheHarness.with(["c.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let prefetch = try await CancelledLeader(harness, cache, "c.bin", after: 40_000)
            #expect(prefetch.head == Array(blob[..<40_000]))
            // A player arriving now must not follow a transfer whose network is being stopped.
            #expect(cache.status(of: prefetch.spec.cacheKey) == .inFlight(origin: .prefetch))
            async let played = CacheHarness.read(prefetch.factory.withOrigin(.playback), prefetch.spec)
            #expect(await prefetch.waitForAWaitingReader(), "the player did not wait for the cancelled transfer")
            try await prefetch.close()
            let (bytes, metrics) = try await played
            #expect(bytes == blob)
            #expect(metrics.cacheHitBytes == 40_000, "the player did not resume the kept bytes")
            let requests = await harness.finishedRequests(for: "/c.bin")
            // By content, not order: the cut first request may be logged after the resumed one.
            #expect(requests.count == 2 && requests.contains { $0.range == "bytes=40000-" }, "\(requests)")
            try await CacheHarness.settle(cache)
            #expect(cache.status(of: prefetch.spec.cacheKey) == .complete(bytes: 300_000))
            try await CacheHarness.close(cache)
        }
    }

    @Test func aReaderWaitingForACancelledTransferToSettleCanBeCancelledToo() async throws {
        try await CacheHarness.with(["w.bin": CacheHarness.bytes(100_000)]) { harness in
            let cache = try await harness.openCache()
            let prefetch = try await CancelledLeader(harness, cache, "w.bin", after: 10_000)
            // A player waits for the settle, and is itself cancelled before it comes.
            let player = Cancellation()
            let outcome = Watched<ReelError??>(nil)
            let reading = Task {
                do {
                    _ = try await CacheHarness.read(prefetch.factory.withOrigin(.playback), prefetch.spec, cancellation: player)
                    outcome.update { $0 = .some(nil) }
                } catch { outcome.update { $0 = .some(error as? ReelError) } }
            }
            #expect(await prefetch.waitForAWaitingReader())
            player.cancel()
            // The cancel alone must end the wait: the transfer settles only when the leader leaves.
            #expect(await outcome.wait { $0 != nil }, "the cancelled player kept waiting for the settle")
            try await prefetch.close()
            await reading.value
            let error = outcome.current ?? nil
            #expect(error?.code == .cancelled, "\(String(describing: error))")
            try await CacheHarness.settle(cache)
            #expect(cache.status(of: prefetch.spec.cacheKey) == .partial(bytes: 10_000))
            try await CacheHarness.close(cache)
        }
    }

    @Test func aStoppedDownloadIsKeptAsAPartialEntryAndResumedWithARangeRequest() async throws {
        let blob = CacheHarness.bytes(500_000)
        try await CacheHarness.with(["p.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let spec = DataSpec(url: harness.url("p.bin"), kind: .segment)
            let (head, _) = try await CacheHarness.read(harness.factory(cache), spec, upTo: 120_000)
            #expect(head == Array(blob[..<120_000]))
            try await CacheHarness.settle(cache)
            #expect(cache.status(of: spec.cacheKey) == .partial(bytes: 120_000))
            #expect(cache.statistics().partialEntries == 1)
            let (whole, metrics) = try await CacheHarness.read(harness.factory(cache), spec)
            #expect(whole == blob)
            #expect(metrics.cacheHitBytes == 120_000)
            let requests = await harness.finishedRequests(for: "/p.bin")
            #expect(requests.count == 2, "\(requests); attempts \(metrics.attempts)")
            // By content, not order: the cut first request may be logged after the resumed one.
            let resumed = requests.first { $0.range != nil }
            #expect(resumed?.range == "bytes=120000-", "resume sent \(String(describing: resumed?.range))")
            #expect(resumed?.bodyBytes == 380_000)
            try await CacheHarness.settle(cache)
            #expect(cache.status(of: spec.cacheKey) == .complete(bytes: 500_000))
            #expect(cache.verify(repair: false).isClean)
            try await CacheHarness.close(cache)
        }
    }

    @Test func evictionFollowsLeastRecentUseAndKeepsTheFolderWithinTheCap() async throws {
        var files: [String: [UInt8]] = [:]
        for index in 0..<8 { files["e\(index).bin"] = CacheHarness.bytes(100_000, seed: UInt64(index)) }
        try await CacheHarness.with(files) { harness in
            let cap: Int64 = 520_000
            let cache = try await harness.openCache(maxBytes: cap)
            let events = EventLog()
            cache.addObserver { events.add($0) }
            func read(_ index: Int) async throws {
                _ = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("e\(index).bin"), kind: .segment))
                try await CacheHarness.settle(cache)
            }
            for index in 0..<3 { try await read(index) }
            try await read(0)  // e0 is now the most recently used
            for index in 3..<8 { try await read(index) }
            let order = [1, 2, 0, 3, 4, 5, 6, 7].map { harness.url("e\($0).bin").absoluteString }
            let evicted = events.evictedKeys
            #expect(!evicted.isEmpty)
            #expect(evicted == Array(order.prefix(evicted.count)), "evicted out of LRU order: \(evicted)")
            #expect(cache.entries.map(\.key) == Array(order.suffix(cache.entries.count)))
            let stats = cache.statistics()
            #expect(stats.bytes + stats.indexBytes <= cap)
            try await CacheHarness.close(cache)
            #expect(folderBytes(harness.cacheDirectory) <= cap, "the folder holds \(folderBytes(harness.cacheDirectory)) bytes")
        }
    }

    @Test func livePlaylistsAreRefetchedWhileVODOnesAreNot() async throws {
        let live = Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg1.ts\n".utf8)
        let vod = Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg1.ts\n#EXT-X-ENDLIST\n".utf8)
        try await CacheHarness.with(["live.m3u8": live, "vod.m3u8": vod]) { harness in
            let cache = try await harness.openCache()
            for _ in 0..<3 {
                for name in ["live.m3u8", "vod.m3u8"] {
                    let (bytes, _) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url(name), kind: .playlist))
                    #expect(bytes == (name == "live.m3u8" ? live : vod))
                }
                try await CacheHarness.settle(cache)
            }
            #expect(await harness.finishedRequests(for: "/live.m3u8").count == 3)
            #expect(await harness.finishedRequests(for: "/vod.m3u8").count == 1)
            #expect(cache.peek(harness.url("live.m3u8").absoluteString)?.isLive == true)
            // Offline, the cached copy of the live playlist is served.
            let offline = harness.factory(cache, reachability: NetworkReachability(forcedOffline: true))
            let (bytes, metrics) = try await CacheHarness.read(offline, DataSpec(url: harness.url("live.m3u8"), kind: .playlist))
            #expect(bytes == live && metrics.cacheHit)
            #expect(await harness.finishedRequests(for: "/live.m3u8").count == 3)
            try await CacheHarness.close(cache)
        }
    }

    @Test func offlineAMissFailsFastNamingTheURL() async throws {
        try await CacheHarness.with(["o.bin": CacheHarness.bytes(1000)]) { harness in
            let cache = try await harness.openCache()
            let offline = harness.factory(cache, reachability: NetworkReachability(forcedOffline: true))
            let url = harness.url("o.bin")
            await #expect {
                _ = try await CacheHarness.read(offline, DataSpec(url: url, kind: .segment))
            } throws: { error in
                guard let error = error as? ReelError else { return false }
                return error.code == .offline && error.message.contains(url.absoluteString)
            }
            #expect(await harness.finishedRequests(for: "/o.bin").isEmpty)
            try await CacheHarness.close(cache)
        }
    }

    @Test func aRefusedConnectionTakesTheJobOfflineAndServesWhatIsCached() async throws {
        let blob = CacheHarness.bytes(30_000)
        try await CacheHarness.with(["n.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let reachability = NetworkReachability()
            let factory = harness.factory(cache, reachability: reachability)
            let cached = DataSpec(url: harness.url("n.bin"), kind: .segment)
            _ = try await CacheHarness.read(factory, cached)
            try await CacheHarness.settle(cache)
            await harness.server.stop()
            let missing = DataSpec(url: harness.url("other.bin"), kind: .segment)
            await #expect(throws: ReelError.self) { _ = try await CacheHarness.read(factory, missing) }
            #expect(reachability.isOffline(for: missing.url) && reachability.failure(for: missing.url)?.code == .connectionFailed)
            #expect(try await CacheHarness.read(factory, cached).0 == blob)
            try await CacheHarness.close(cache)
        }
    }

    /// A thumbnail or variant host that refuses connections takes only its own requests offline:
    /// the feed's host goes on fetching what is not cached.
    @Test func aRefusedConnectionTakesOnlyItsHostOffline() async throws {
        let blob = CacheHarness.bytes(20_000)
        try await CacheHarness.with(["live.bin": blob]) { harness in
            let cache = try await harness.openCache()
            let reachability = NetworkReachability()
            let factory = harness.factory(cache, reachability: reachability)
            let dead = DataSpec(url: try #require(URL(string: "http://127.0.0.1:1/thumbs/t.jpg")), kind: .media)
            await #expect(throws: ReelError.self) { _ = try await CacheHarness.read(factory, dead) }
            #expect(reachability.isOffline(for: dead.url) && reachability.failure(for: dead.url)?.code == .connectionFailed)
            #expect(reachability.unreachableHosts == ["http://127.0.0.1:1"])
            // A second request to the dead host fails fast, offline.
            await #expect { _ = try await CacheHarness.read(factory, dead) } throws: { ($0 as? ReelError)?.code == .offline }
            // The live host is still online: its miss is fetched from the network.
            let live = DataSpec(url: harness.url("live.bin"), kind: .segment)
            #expect(!reachability.isOffline(for: live.url))
            let (bytes, metrics) = try await CacheHarness.read(factory, live)
            #expect(bytes == blob && !metrics.cacheHit)
            #expect(await harness.finishedRequests(for: "/live.bin").count == 1)
            try await CacheHarness.close(cache)
        }
    }

    @Test func aCancelStopsAReaderWaitingOnAStalledServer() async throws {
        try await CacheHarness.with(["stall.bin": CacheHarness.bytes(50_000)]) { harness in
            let cache = try await harness.openCache()
            harness.server.injectFault(.stall(afterBytes: 0), path: "/stall.bin", count: 10)
            let cancellation = Cancellation()
            let factory = harness.factory(cache)
            let url = harness.url("stall.bin")
            async let outcome: ReelError? = {
                do {
                    _ = try await CacheHarness.read(factory, DataSpec(url: url, kind: .segment), cancellation: cancellation)
                    return nil
                } catch { return error as? ReelError }
            }()
            // The request reached the server and hangs there: cancel it.
            let server = harness.server
            let waiting = await server.waitForBill { $0.paths["/stall.bin"]?.inFlightRequests ?? 0 > 0 } != nil
            #expect(waiting)
            cancellation.cancel()
            let error = await outcome
            #expect(error?.code == .cancelled, "\(String(describing: error))")
            try await CacheHarness.close(cache)
        }
    }

    @Test func aThumbnailIsFetchedOnceThroughTheCache() async throws {
        let image = CacheHarness.bytes(12_345)
        try await CacheHarness.with(["thumb.jpg": image]) { harness in
            let cache = try await harness.openCache()
            let factory = harness.factory(cache)
            let first = try await factory.fetchResource(harness.url("thumb.jpg"))
            try await CacheHarness.settle(cache)
            let second = try await factory.fetchResource(harness.url("thumb.jpg"))
            #expect(first.bytes == image && second.bytes == image)
            #expect(!first.metrics.cacheHit && second.metrics.cacheHit)
            #expect(cache.peek(harness.url("thumb.jpg").absoluteString)?.kind == .image)
            #expect(await harness.finishedRequests(for: "/thumb.jpg").count == 1)
            try await CacheHarness.close(cache)
        }
    }

    @Test func verifyReportsAndRepairsBadEntries() async throws {
        let files = ["v1.bin": CacheHarness.bytes(10_000, seed: 1), "v2.bin": CacheHarness.bytes(10_000, seed: 2)]
        try await CacheHarness.with(files) { harness in
            let cache = try await harness.openCache()
            for name in files.keys.sorted() {
                _ = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url(name), kind: .segment))
            }
            try await CacheHarness.settle(cache)
            let file = try #require(contentFiles(harness.cacheDirectory).first)
            var bytes = [UInt8](try Data(contentsOf: file))
            bytes[5] ^= 0xFF
            try Data(bytes).write(to: file)
            let report = try await BlockingPool.shared.run { cache.verify(repair: false) }
            #expect(report.checked == 2 && report.bad.count == 1 && !report.isClean)
            #expect(report.bad.first?.reason == "checksum mismatch")
            let repaired = try await BlockingPool.shared.run { cache.verify(repair: true) }
            #expect(repaired.removed == 1 && cache.entries.count == 1)
            #expect(try await BlockingPool.shared.run { cache.verify(repair: false) }.isClean)
            try await CacheHarness.close(cache)
        }
    }

    @Test func aFileBiggerThanTheCapIsServedButNotKept() async throws {
        let blob = CacheHarness.bytes(400_000)
        try await CacheHarness.with(["big.bin": blob]) { harness in
            let cache = try await harness.openCache(maxBytes: 200_000)
            let (bytes, _) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("big.bin"), kind: .segment))
            #expect(bytes == blob)
            try await CacheHarness.settle(cache)
            #expect(cache.entries.isEmpty)
            #expect(contentFiles(harness.cacheDirectory).isEmpty)
            try await CacheHarness.close(cache)
        }
    }
}
