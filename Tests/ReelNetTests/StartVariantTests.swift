import Foundation
import ReelCore
import ReelStore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// The start variant of a master: the bandwidth meter's estimate picks it, one code for prefetch
/// and playback; a variant whose start prefetch already cached comes first, so prefetch's bytes
/// are the ones played even when the estimate has moved since.
@Suite("Start variant")
struct StartVariantTests {
    static let adaptive = ABRParameters(safetyFactor: 0.75)

    /// Resolves `url` on a thread of its own with a meter estimating `kbps`, through `cache`.
    static func resolve(_ url: URL, kbps: Int, cache: Cache, constraints: PlaybackConstraints) async throws -> (variant: String?, start: String?) {
        let engine = TransferEngine(options: NetworkOptions(), meter: BandwidthMeter(initialBitsPerSecond: kbps * 1000))
        defer { BlockingPool.shared.start { engine.shutdown() } }
        let factory = CacheDataSourceFactory(cache: cache, upstream: URLDataSourceFactory(engine: engine, allowLocalFiles: false))
        return try await BlockingPool.shared.run {
            let resolved = try InputResolver(factory: factory, cancellation: Cancellation(), log: RequestLog(),
                                             constraints: constraints).resolve(url)
            return (resolved.variant?.lastPathComponentPair, resolved.adaptive?.report.startVariant)
        }
    }

    @Test func theEstimatePicksAndACachedStartComesFirst() async throws {
        try await withSampleServer { server in
            let folder = try makeScratchFolder("reel-start")
            defer { try? FileManager.default.removeItem(at: folder) }
            let cache = try await BlockingPool.shared.run { try Cache.openOrThrow(directory: folder, maxBytes: 64 << 20) }
            defer { cache.close() }
            let master = server.url(for: "streams/s03/master.m3u8")
            let constraints = PlaybackConstraints(adaptive: Self.adaptive)

            // 20 Mbit/s affords the top; 500 kbit/s affords 360p (272,800 bit/s peak) only.
            #expect(try await Self.resolve(master, kbps: 20_000, cache: cache, constraints: constraints).variant == "720p/index.m3u8")

            // Prefetch under 500 kbit/s plans and caches 360p's start...
            let slowEngine = TransferEngine(options: NetworkOptions(), meter: BandwidthMeter(initialBitsPerSecond: 500_000))
            defer { BlockingPool.shared.start { slowEngine.shutdown() } }
            let prefetch = CacheDataSourceFactory(cache: cache, upstream: URLDataSourceFactory(engine: slowEngine, allowLocalFiles: false),
                                                  origin: .prefetch)
            let plan = try await BlockingPool.shared.run {
                let plan = try PrefetchPlan.make(for: master, segments: 1, factory: prefetch, constraints: constraints)
                for item in plan.items { _ = try prefetch.fetch(item) }
                // Entries are sealed on the cache's commit queue, just behind the reader.
                cache.waitForPendingWrites()
                return plan
            }
            #expect(plan.variant?.lastPathComponentPair == "360p/index.m3u8")

            // ... and a play under 20 Mbit/s then starts there, where the bytes are.
            let fast = try await Self.resolve(master, kbps: 20_000, cache: cache, constraints: constraints)
            #expect(fast.variant == "360p/index.m3u8")
            #expect(fast.start?.hasSuffix("360p/index.m3u8") == true)

            // Without adaptive bitrate the choice is today's: the device's fixed estimate, cache or not.
            var fixed = PlaybackConstraints()
            fixed.bandwidthBitsPerSecond = 8_000_000
            #expect(try await Self.resolve(master, kbps: 500, cache: cache, constraints: fixed).variant == "720p/index.m3u8")
        }
    }
}

extension URL {
    /// "720p/index.m3u8" of ".../s03/720p/index.m3u8".
    fileprivate var lastPathComponentPair: String {
        deletingLastPathComponent().lastPathComponent + "/" + lastPathComponent
    }
}
