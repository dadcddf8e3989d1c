import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelManifest
import ReelMedia
import ReelNet
import ReelServer

/// Runs one feed session end to end, as `reel feed run` does: the CDN simulator serving a folder
/// (or a server at a base URL), a fresh disk cache in a temporary folder (deleted afterwards), one
/// transfer engine, the session; then the simulator's bill for the run.
public enum FeedRun {
    /// Runs `request` with `config`; `title` names the run in reports.
    public static func run(_ request: FeedRunRequest, config: ReelConfig, title: String) async throws -> FeedRunResult {
        switch request.origin {
        case .serve(let folder, let profile, let faults):
            return try await withServer(CDNServerConfiguration(root: folder, profile: profile, faults: faults)) { server in
                try await run(request, config: config, title: title, baseURL: server.baseURL, server: server)
            }
        case .simulator(let server):
            return try await run(request, config: config, title: title, baseURL: server.baseURL, server: server)
        case .remote(let baseURL):
            return try await run(request, config: config, title: title, baseURL: baseURL, server: nil)
        }
    }

    private static func run(_ request: FeedRunRequest, config: ReelConfig, title: String, baseURL: URL,
                            server: CDNServer?) async throws -> FeedRunResult {
        // Each run's cache is new, so its meter starts from `device.bandwidthEstimateKbps`: runs
        // stay independent of one another (a sweep's cells in any order).
        let engine = TransferEngine(options: NetworkOptions(config.network), meter: BandwidthMeter(config: config))
        let network = URLDataSourceFactory(engine: engine, allowLocalFiles: false)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-feed-\(UUID().uuidString)")
        var cache: Cache?
        do {
            // A simulator handed over (tests) is known to run, and its bill stays the run's alone.
            if request.origin.isRunningSimulator == false {
                try await preflight(request, baseURL: baseURL, network: network)
            }
            if config.cache.enabled {
                let maxBytes = Int64(config.cache.maxBytes)
                cache = try await BlockingPool.shared.run {
                    try Cache.openOrThrow(directory: folder, maxBytes: maxBytes)
                }
            }
        } catch {
            await shutDown(engine: engine, cache: nil, folder: folder)
            throw error
        }
        // The preflight's request is not the session's.
        let before = server?.bill()
        let cacheFactory = cache.map { CacheDataSourceFactory(cache: $0, upstream: network, origin: .playback) }
        let clock = EngineClock.continuous
        let source = LatentFeedSource(base: CatalogFeedSource(catalog: request.catalog, baseURL: baseURL, config: config),
                                      latency: Double(config.pagination.latencyMs) / 1000, clock: clock)
        let feed = FeedEngine(config: config, source: source, factory: cacheFactory ?? network, cacheFactory: cacheFactory,
                                screen: request.screen, clock: clock)
        let outcome = await TraceDriver.run(request.trace, into: feed, launchSeconds: request.launchSeconds,
                                            visibility: VisibilityParameters(config: config))
        await shutDown(engine: engine, cache: cache, folder: folder)

        var summary = outcome.summary
        var bill: CDNBill?
        if let server, let before {
            let after = await quietBill(server)
            var delta = after
            delta.requests -= before.requests
            delta.bodyBytes -= before.bodyBytes
            delta.connections -= before.connections
            delta.faults.status -= before.faults.status
            delta.faults.reset -= before.faults.reset
            delta.faults.stall -= before.faults.stall
            bill = delta
            summary.cdn.requests = delta.requests
            summary.cdn.bytes = Int64(delta.bodyBytes)
        }
        return FeedRunResult(title: title, events: outcome.events, summary: summary, players: outcome.players,
                             warnings: outcome.warnings, bill: bill)
    }

    /// Fetches the catalog's first video's entry point, so an unreachable server or a folder
    /// without the catalog's streams fails at once with one error instead of a session of errors.
    private static func preflight(_ request: FeedRunRequest, baseURL: URL, network: URLDataSourceFactory) async throws {
        guard let first = request.catalog.entries.first else { return }
        guard let url = URL(string: first.url, relativeTo: baseURL)?.absoluteURL else {
            throw ReelError(.invalidCatalog, "the catalog's first video URL '\(first.url)' is not a URL")
        }
        do {
            _ = try await BlockingPool.shared.run {
                try network.fetch(DataSpec(url: url, kind: .playlist), limit: 32 << 20)
            }
        } catch let error as ReelError {
            throw ReelError(error.code, "cannot read the feed's first video from \(baseURL.absoluteString): \(error.message)", cause: error.cause)
        }
    }

    /// Stops the transfer engine and closes the cache (both block, so on threads of their own),
    /// then deletes the cache folder.
    private static func shutDown(engine: TransferEngine, cache: Cache?, folder: URL) async {
        _ = try? await BlockingPool.shared.run {
            cache?.close()
            engine.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The bill once every connection of the run is closed (the engine's shutdown closed them;
    /// the simulator notices within milliseconds), so bytes of the last transfers are in it. The
    /// limit only guards against a simulator that never notices, even on a loaded machine.
    private static func quietBill(_ server: CDNServer) async -> CDNBill {
        await server.waitForBill(limit: .seconds(10)) { $0.openConnections == 0 } ?? server.bill()
    }
}
