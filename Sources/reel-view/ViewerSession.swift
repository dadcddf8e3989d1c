import Foundation
import Logging
import ReelCore
import ReelEngine
import ReelMedia
import ReelFeed
import ReelHarness
import ReelLaunch
import ReelNet
import ReelSplash

/// What the screen shows at launch, as the launch controller decided it.
enum LaunchShow: Sendable {
    /// No launch window: `--no-launch`, or a quick return (the reason's name).
    case nothing(reason: String)
    /// The loading animation, played as the plan says.
    case loading(LoadingAnimationPlan, reason: String)
    /// A splash drawn from its Lottie asset.
    case splash(SplashAnimation)

    /// "splash", "loadingAnimation" or "nothing", as `reel launch simulate` names them.
    var kind: String {
        switch self {
        case .nothing: "nothing"
        case .loading: "loadingAnimation"
        case .splash: "splash"
        }
    }
}

/// What the screen needs once the session is up.
struct ViewerFeed: Sendable {
    let engine: FeedEngine
    let config: ReelConfig
    let launch: LaunchShow
    /// When the first page of the feed arrived (nil until it has): the loading animation plays
    /// until then when the launch window warms the feed.
    let firstPage: Locked<ContinuousClock.Instant?>

    /// The launch window fetches the first page (`launch.warmFeed`, which needs prefetch and a
    /// cache): the app is ready when it is in. Otherwise the feed asks for it when it shows, and
    /// the loading animation does not wait for it.
    var warmsDuringLaunch: Bool {
        config.launch.warmFeed && config.prefetch.enabled && config.cache.enabled
    }

    /// When the app is ready for the launch window to end, for one that began at `start`.
    func ready(after start: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        warmsDuringLaunch ? firstPage.withLock { $0 } : start
    }
}

/// How the session ended, for the report.
struct ViewerOutcome: Sendable {
    let outcome: SessionOutcome
    let warnings: [String]
}

/// The meeting point of the screen (the main thread) and the session (async): the session says
/// when it is up, failed or closed; the screen says when to close.
final class ViewerLink: Sendable {
    enum State: Sendable {
        case starting
        case ready(ViewerFeed)
        case failed(ReelError)
        case closed(ViewerOutcome)
    }

    let state = Watched(State.starting)
    /// Set by the screen when the session should close.
    let quit = Watched(false)
}

/// The session side of the viewer: stands the origin up (the CDN simulator for a served folder),
/// opens the engine stack, loads the catalog, decides the launch, hands the engine to the
/// screen, and when the screen quits closes everything and hands the outcome back.
struct ViewerSession: Sendable {
    let options: ViewerOptions
    let link: ViewerLink
    /// Where the feed comes from: a served folder with the simulator's profile, or the server
    /// of `--feed`'s catalog.
    let origin: FeedOrigin
    /// The folder served, whose `video-feed.json` is the feed (nil with `--feed`).
    let servedFolder: URL?
    /// The configuration: the served folder's defaults under `--config` and `--set`.
    let resolution: ConfigResolution
    /// The screen in points.
    let screen: Size
    /// The speaker's format, when there is one: the players of shorts decode their sound to it.
    let sound: SoundFormat?

    /// Checks where the feed comes from and resolves the configuration; throws naming a folder
    /// without a catalog or a bad configuration.
    init(options: ViewerOptions, link: ViewerLink, sound: SoundFormat?) throws {
        self.options = options
        self.link = link
        self.sound = sound
        if let feedURL = options.feedURL {
            origin = try FeedOrigin.remote(parsing: feedURL.deletingLastPathComponent().absoluteString)
            servedFolder = nil
        } else {
            origin = try FeedOrigin.serve(path: options.serve, profileNamed: options.profile)
            let folder = URL(fileURLWithPath: options.serve, isDirectory: true).standardizedFileURL
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("video-feed.json").path) else {
                throw ReelError(.invalidInput, "'\(options.serve)' has no video-feed.json: give --serve DIR (a folder like Samples) or --feed URL")
            }
            servedFolder = folder
        }
        resolution = try origin.configuration(options.configSources)
        screen = options.size ?? Size(screenOf: resolution.config)
    }

    func run() async {
        do {
            let outcome = try await origin.withBaseURL { baseURL in try await session(baseURL: baseURL) }
            link.state.update { $0 = .closed(outcome) }
        } catch {
            let failure = error as? ReelError ?? ReelError(.internalFailure, "\(error)")
            link.state.update { $0 = .failed(failure) }
        }
    }

    private func session(baseURL: URL) async throws -> ViewerOutcome {
        let config = resolution.config
        let stack = try await EngineStack.open(config: config)
        do {
            let outcome = try await session(baseURL: baseURL, stack: stack, config: config)
            await stack.close()
            return outcome
        } catch {
            await stack.close()
            throw error
        }
    }

    private func session(baseURL: URL, stack: EngineStack, config: ReelConfig) async throws -> ViewerOutcome {
        let catalogSource: CatalogFeedSource
        if let servedFolder {
            let catalog = try FeedCatalog.load(path: servedFolder.appendingPathComponent("video-feed.json").path)
            if let warning = catalog.warning { ReelLog.feed.warning("\(warning)") }
            catalogSource = CatalogFeedSource(catalog: catalog, baseURL: baseURL, config: config)
        } else {
            catalogSource = try await CatalogFeedSource.load(options.feedURL ?? baseURL, factory: stack.network, config: config)
        }
        let clock = EngineClock.continuous
        let firstPage = Locked<ContinuousClock.Instant?>(nil)
        let source = WatchedFeedSource(base: LatentFeedSource(base: catalogSource, latency: Double(config.pagination.latencyMs) / 1000,
                                                              clock: clock),
                                       firstPage: firstPage)
        let engine = stack.makeEngine(config: config, source: source, screen: screen, clock: clock, sound: sound)
        let launcher = options.launch ? try await Launcher.open(options: options, resolution: resolution, servedFolder: servedFolder,
                                                                 factory: stack.launchFactory) : nil
        let show = await launcher?.decide() ?? .nothing(reason: "skipped")
        link.state.update { $0 = .ready(ViewerFeed(engine: engine, config: config, launch: show, firstPage: firstPage)) }

        // Until the screen quits: no time limit, the window stays open as long as the user wants.
        while !(await link.quit.wait(limit: .seconds(3600)) { $0 }) {}
        let outcome = await engine.close()
        await launcher?.close()
        if let path = options.eventsFile {
            let events = outcome.events
            try await BlockingPool.shared.run { try SessionEvent.write(events, to: path) }
        }
        return ViewerOutcome(outcome: outcome, warnings: outcome.warnings)
    }
}

/// The catalog's pages, noting when the first one arrived (the loading animation's "ready").
struct WatchedFeedSource: FeedSource {
    let base: LatentFeedSource
    let firstPage: Locked<ContinuousClock.Instant?>

    var baseURL: URL { base.baseURL }

    func page(_ cursor: FeedCursor) async throws -> FeedPage {
        let page = try await base.page(cursor)
        firstPage.withLock { if $0 == nil { $0 = .now } }
        return page
    }
}
