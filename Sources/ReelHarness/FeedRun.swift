import Foundation
import ReelCore
import ReelStore
import ReelEngine
import ReelFeed
import ReelManifest
import ReelMedia
import ReelNet
import ReelServer

/// Runs one feed session end to end, as `reel feed run` does: the CDN simulator serving a folder
/// (or a server at a base URL), a fresh disk cache in a temporary folder (deleted afterwards), one
/// transfer engine, the session; then the simulator's bill for the run.
package enum FeedRun {
    /// Runs `request` with `config`; `title` names the run in reports.
    package static func run(_ request: FeedRunRequest, config: ReelConfig, title: String) async throws -> FeedRunResult {
        if request.engine == .simulate { return try await FeedSimRun.run(request, config: config, title: title) }
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
        var options = ReelStack.Options()
        options.cache = config.cache.enabled ? .temporary : .none
        options.remembersEstimate = false
        let (outcome, catalog, warnings, before) = try await ReelStack.with(config: config, options: options) { stack in
            var catalog = request.catalog
            var warnings: [String] = []
            // A simulator handed over (tests) is known to run, and its bill stays the run's alone.
            if request.origin.isRunningSimulator == false {
                (catalog, warnings) = try await preflight(request.catalog, baseURL: baseURL, network: stack.network)
            }
            // The preflight's request is not the session's.
            let before = server?.bill()
            let clock = EngineClock.continuous
            let source = LatentFeedSource(base: CatalogFeedSource(catalog: catalog, baseURL: baseURL, config: config),
                                          latency: Double(config.pagination.latencyMs) / 1000, clock: clock)
            let feed = FeedEngine(stack: stack, source: source, screen: request.screen, clock: clock)
            let watcher = request.onProgress.map { onProgress in
                Task { [trace = request.trace, launch = request.launchSeconds] in
                    var progress = FeedRunProgress(traceLength: trace.samples.last?.time ?? 0)
                    for await event in feed.events {
                        progress.note(event, launchSeconds: launch)
                        onProgress(progress)
                    }
                }
            }
            let drive = Task { [visibility = VisibilityParameters(config: config)] in
                await TraceDriver.run(request.trace, into: feed, launchSeconds: request.launchSeconds, visibility: visibility)
            }
            let stopping = request.stop?.onCancel { drive.cancel() }
            let outcome = await drive.value
            if let stopping { request.stop?.removeHandler(stopping) }
            await watcher?.value
            return (outcome, catalog, warnings, before)
        }

        var summary = outcome.summary
        summary.skippedVideos = catalog.skipped.count
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
            for (label, share) in before.purposes {
                delta.purposes[label]?.requests -= share.requests
                delta.purposes[label]?.bodyBytes -= share.bodyBytes
            }
            for (label, share) in before.objectTypes {
                delta.objectTypes[label]?.requests -= share.requests
                delta.objectTypes[label]?.bodyBytes -= share.bodyBytes
            }
            bill = delta
            summary.cdn.requests = delta.requests
            summary.cdn.bytes = Int64(delta.bodyBytes)
        }
        return FeedRunResult(title: title, events: outcome.events, summary: summary, players: outcome.players,
                             warnings: warnings + outcome.warnings, bill: bill, interrupted: request.stop?.isCancelled ?? false)
    }

    /// Reads the catalog's entry points in order until one answers, so an unreachable server or
    /// a folder without the catalog's streams fails at once with one error instead of a session
    /// of errors. Entries before it that cannot be read (not a URL, a 404, not a playlist) are
    /// left out of the run, each named in a warning, as a feed app skips an item it cannot show;
    /// an error when no entry is left, or when the server cannot be reached at all.
    private static func preflight(_ catalog: FeedCatalog, baseURL: URL,
                                  network: URLDataSourceFactory) async throws -> (FeedCatalog, warnings: [String]) {
        guard !catalog.entries.isEmpty else {
            if let warning = catalog.warning { throw ReelError(.invalidCatalog, "no usable video left: \(warning)") }
            return (catalog, [])
        }
        var skipped: [FeedCatalog.Skipped] = []
        var firstFailure: ReelError?
        for entry in catalog.entries {
            do {
                guard let url = URL(string: entry.url, relativeTo: baseURL)?.absoluteURL,
                      url.scheme?.lowercased() == "http" || url.scheme?.lowercased() == "https" else {
                    throw ReelError(.invalidCatalog, "'\(entry.url)' is not an http(s) URL")
                }
                _ = try await BlockingPool.shared.run {
                    try network.fetch(DataSpec(url: url, kind: .playlist), limit: 32 << 20)
                }
                break
            } catch let error as ReelError {
                // A server that cannot be reached is the run's problem, not this entry's.
                if NetworkReachability.meansUnreachable(error) || error.code == .timeout || error.code == .cancelled {
                    throw ReelError(error.code, "cannot read the feed's videos from \(baseURL.absoluteString): \(error.message)",
                                    cause: error.cause)
                }
                firstFailure = firstFailure ?? error
                skipped.append(FeedCatalog.Skipped(index: entry.index, reason: "'\(entry.url)' cannot be read: \(error.description)"))
            }
        }
        guard !skipped.isEmpty else { return (catalog, []) }
        let left = catalog.entries.filter { entry in !skipped.contains { $0.index == entry.index } }
        let total = catalog.entries.count + catalog.skipped.count
        let warnings = skipped.map { "\(catalog.source): skipped entry #\($0.index) of \(total): \($0.reason)" }
        guard !left.isEmpty else {
            throw ReelError(firstFailure?.code ?? .invalidCatalog,
                            "cannot read any of the feed's \(catalog.entries.count) videos from \(baseURL.absoluteString): \(skipped[0].reason)"
                            + (skipped.count > 1 ? " (and \(skipped.count - 1) more)" : ""))
        }
        let merged = (catalog.skipped + skipped).sorted { $0.index < $1.index }
        return (FeedCatalog(entries: left, skipped: merged, source: catalog.source), warnings)
    }

    /// The bill once every connection of the run is closed (the engine's shutdown closed them;
    /// the simulator notices within milliseconds), so bytes of the last transfers are in it. The
    /// limit only guards against a simulator that never notices, even on a loaded machine.
    private static func quietBill(_ server: CDNServer) async -> CDNBill {
        await server.waitForBill(limit: .seconds(10)) { $0.openConnections == 0 } ?? server.bill()
    }
}
