import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelServer
import ReelSim

/// Runs one feed session in virtual time (`FeedSimulation`) on a served folder's media, as
/// `reel feed simulate` and `reel feed sweep --engine simulate` do: the same request and the
/// same result as a real run, its summary marked simulated, its CDN figures the modelled
/// link's.
enum FeedSimRun {
    /// Media read from folders, kept for the process: a sweep simulates many sessions on one.
    private static let media = Locked([String: SimMediaCatalog]())

    static func run(_ request: FeedRunRequest, config: ReelConfig, title: String) async throws -> FeedRunResult {
        guard case .serve(let folder, let profile, let faults) = request.origin else {
            throw ReelError(.invalidInput, "a simulated session models the media of a served folder (--serve), not a server at --base-url")
        }
        guard faults.isEmpty else {
            throw ReelError(.invalidInput, "the simulation injects no faults: --fail-rate, --stall-rate and --reset-rate need the real engine")
        }
        let baseURL = URL(string: "http://simulated.reel/")!
        let catalog = request.catalog
        let media = try await BlockingPool.shared.run { try Self.media(folder: folder, baseURL: baseURL, catalog: catalog) }
        let models = SimModels(profile: profile, media: media)
        let (trace, launch, screen) = (request.trace, request.launchSeconds, request.screen)
        let outcome = try await BlockingPool.shared.run {
            FeedSimulation(config: config, catalog: catalog, baseURL: baseURL, screen: screen, models: models,
                           user: TraceUser(trace: trace, launchSeconds: launch)).run()
        }
        return FeedRunResult(title: title, events: outcome.events, summary: outcome.summary, players: outcome.players,
                             warnings: outcome.warnings, bill: nil)
    }

    /// The catalog's streams read from `folder` once per process.
    static func media(folder: URL, baseURL: URL, catalog: FeedCatalog) throws -> SimMediaCatalog {
        let urls = catalog.entries.compactMap { URL(string: $0.url, relativeTo: baseURL)?.absoluteURL }
        let key = folder.path + "|" + urls.map(\.absoluteString).joined(separator: ",")
        if let cached = media.withLock({ $0[key] }) { return cached }
        let loaded = try SimMediaCatalog.load(folder: folder, baseURL: baseURL, urls: urls)
        media.withLock { $0[key] = loaded }
        return loaded
    }
}
