import Foundation
import Logging
import ReelCore
import ReelNet
import ReelSplash

/// Decides what the app shows at launch and on foreground, and keeps the splashes it may show
/// ready: the executor of `LaunchPolicy` (read it for the rules).
///
///     let launch = await LaunchController.open(directory: folder, parameters: try LaunchParameters(resolution: resolution),
///                                              factory: factory, checker: ChildProcessAssetChecker.currentExecutable())
///     let decision = await launch.handle(.launch)       // splash(id), loadingAnimation or nothing, with its reason
///     await launch.handle(.background)
///     await launch.waitUntilIdle()                      // the configuration and assets the events asked for are in
///     await launch.close()
///
/// A decision is made at once from what is cached and persisted before it is returned (a
/// display, a crash, the lifecycle, in one SQLite transaction), so a SIGKILL right after it
/// loses nothing. The background work it asks for runs meanwhile: the configuration and assets
/// are fetched through `factory` on `BlockingPool` threads, assets checked by `checker` (in a
/// child process with bounded memory and time, for an app: `ChildProcessAssetChecker`; the
/// asset's row says "checking" before it starts, so a check that takes the process down refuses
/// the asset at the next open instead of crashing every launch) and written atomically into the
/// state folder; what they bring
/// applies from the next event. The actor runs on a thread of its own, so its SQLite calls and
/// file removals never block the cooperative pool. Problems (a configuration or asset that is
/// refused, the network gone, a corrupt database) go to `logger` (`reel.launch`), one warning each, and never stop a
/// decision.
public actor LaunchController {
    private let executor = DedicatedThreadExecutor(name: "reel.launch")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private var policy: LaunchPolicy
    private let folder: LaunchStateFolder
    private var store: LaunchStateStore?
    /// Cached asset files by asset URL.
    private var files: [String: String]
    private let factory: any DataSourceFactory
    private let checker: any SplashAssetChecker
    private let clock: LaunchClock
    private let logger: Logger
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextWork = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var closed = false
    /// XXH64 of the configuration last parsed, so an unchanged one does not repeat its warnings.
    private var configurationDigest: UInt64?

    /// Opens the launch state in `directory` (see `LaunchStateFolder`) and makes a controller
    /// fetching through `factory` (its local-file policy decides whether a local configuration
    /// may be read) and checking assets with `checker`.
    public static func open(directory: URL, parameters: LaunchParameters, factory: any DataSourceFactory,
                            checker: any SplashAssetChecker, clock: LaunchClock = .system,
                            logger: Logger = ReelLog.launch) async -> LaunchController {
        let folder = LaunchStateFolder(directory: directory)
        let opened = await BlockingPool.shared.runToEnd { folder.open(logger: logger) }
        return LaunchController(parameters: parameters, folder: folder, opened: opened, factory: factory, checker: checker,
                                clock: clock, logger: logger)
    }

    private init(parameters: LaunchParameters, folder: LaunchStateFolder, opened: OpenedLaunchState,
                 factory: any DataSourceFactory, checker: any SplashAssetChecker, clock: LaunchClock,
                 logger: Logger) {
        policy = LaunchPolicy(parameters: parameters, state: opened.state, configuration: opened.configuration,
                              assets: opened.assets.mapValues(\.status), assetBytes: opened.assets.mapValues(\.bytes))
        self.folder = folder
        store = opened.store
        files = opened.assets.compactMapValues(\.file)
        configurationDigest = opened.configurationDigest
        self.factory = factory
        self.checker = checker
        self.clock = clock
        self.logger = logger
    }

    deinit {
        for task in running.values { task.cancel() }
        // Dropped without `close()`: the database closes on a pool thread, never the caller's.
        if let store { BlockingPool.shared.start { store.close() } }
        executor.shutdown()
    }

    // MARK: Events

    /// Applies an event at its own time and returns what to show.
    @discardableResult
    public func handle(_ event: LaunchEvent) -> LaunchDecision {
        let outcome = policy.handle(event)
        perform(outcome.actions)
        return outcome.decision
    }

    /// Applies an event of `kind` at the clock's time.
    @discardableResult
    public func handle(_ kind: LaunchEvent.Kind) -> LaunchDecision {
        handle(LaunchEvent(time: clock.now(), kind: kind))
    }

    // MARK: State

    /// The policy as it stands: the state, the cached configuration, what is known of each asset.
    public var snapshot: LaunchPolicy { policy }

    /// The cached file of a valid asset, to play the splash a decision names.
    public func assetFile(for url: String) -> URL? {
        files[url].map { URL(fileURLWithPath: folder.assetPath($0)) }
    }

    /// Returns once no background work is running (at once when none is).
    public func waitUntilIdle() async {
        guard !running.isEmpty else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Cancels the background work, waits for it to end and closes the database. Later events
    /// are still decided, in memory only.
    public func close() async {
        closed = true
        for task in running.values { task.cancel() }
        while let (id, task) = running.first {
            await task.value
            running[id] = nil
        }
        store?.close()
        store = nil
        resumeIdleWaiters()
    }

    // MARK: Performing the policy's actions

    private func perform(_ actions: [LaunchAction]) {
        var changes = LaunchStateChanges()
        var removed: [String] = []
        for action in actions {
            switch action {
            case .recordDisplay(let splash, let at): changes.displays.append((splash, at))
            case .recordCrash(let crash): changes.crashes.append(crash)
            case .saveLifecycle(let lifecycle): changes.lifecycle = lifecycle
            case .deleteAsset(let url):
                changes.deletes.append(url)
                if let file = files.removeValue(forKey: url) { removed.append(file) }
            case .fetchConfiguration, .downloadAsset: break
            }
        }
        save(changes)
        // The rows are gone first: a crash before the unlink leaves a file the next open sweeps.
        for file in removed { folder.removeAsset(file) }
        for action in actions {
            switch action {
            case .fetchConfiguration(let url): start(.configuration(url))
            case .downloadAsset(let url): start(.asset(url))
            default: break
            }
        }
    }

    private func save(_ changes: LaunchStateChanges) {
        guard let store, !changes.isEmpty else { return }
        do {
            try store.apply(changes)
        } catch {
            logger.warning("launch state not saved: \(error)")
        }
    }

    /// Background work the policy asked for.
    private enum Work: Sendable {
        case configuration(URL)
        case asset(String)
    }

    /// Runs background work as a task on this actor; its blocking parts go to pools.
    private func start(_ work: Work) {
        guard !closed else { return }
        nextWork += 1
        let id = nextWork
        running[id] = Task {
            switch work {
            case .configuration(let url): await self.fetchConfiguration(url)
            case .asset(let url): await self.download(url)
            }
            self.workEnded(id)
        }
    }

    private func workEnded(_ id: Int) {
        running[id] = nil
        if running.isEmpty { resumeIdleWaiters() }
    }

    private func resumeIdleWaiters() {
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Background work

    private func fetchConfiguration(_ url: URL) async {
        let factory = self.factory
        let name = "splash configuration '\(url.absoluteString)'"
        let outcome: Result<SplashFetch.Outcome, any Error>
        do {
            outcome = .success(try await BlockingPool.shared.run { cancellation in
                try SplashFetch.fetch(url, limit: SplashConfigurationParser.maxBytes, factory: factory, cancellation: cancellation)
            })
        } catch {
            outcome = .failure(error)
        }
        if Task.isCancelled { return }
        let now = clock.now()
        switch outcome {
        case .success(.bytes(let bytes)):
            do {
                let (configuration, warnings) = try SplashConfigurationParser.parse(bytes, url: url, fetchedAt: now)
                let digest = XXHash64.hash(bytes)
                if digest != configurationDigest {
                    for warning in warnings { logger.warning("\(warning)") }
                }
                configurationDigest = digest
                var changes = LaunchStateChanges()
                changes.configuration = StoredConfiguration(url: url.absoluteString, fetchedAt: now, body: bytes)
                save(changes)
                perform(policy.configurationFetched(configuration))
            } catch {
                logger.warning("\(Self.message(error)); the cached configuration stays")
                perform(policy.configurationFailed(at: now))
            }
        case .success(.tooLarge):
            logger.warning("\(name) is larger than \(SplashConfigurationParser.maxBytes) bytes; the cached configuration stays")
            perform(policy.configurationFailed(at: now))
        case .failure(let error):
            logger.warning("\(name) could not be fetched: \(Self.message(error)); the cached configuration stays")
            perform(policy.configurationFailed(at: now))
        }
    }

    private func download(_ url: String) async {
        let factory = self.factory
        let limits = policy.parameters.assetLimits
        let splashes = policy.configuration?.splashIDs(using: url).map { "'\(LaunchText.escaped($0))'" }.joined(separator: ", ") ?? ""
        let name = "splash \(splashes): asset '\(LaunchText.escaped(url))'"
        let outcome: Result<SplashFetch.Outcome, any Error>
        do {
            guard let remote = URL(string: url) else { throw ReelError(.invalidInput, "not a URL") }
            outcome = .success(try await BlockingPool.shared.run { cancellation in
                try SplashFetch.fetch(remote, limit: limits.maxBytes, factory: factory, cancellation: cancellation)
            })
        } catch {
            outcome = .failure(error)
        }
        if Task.isCancelled { return }
        var stored: StoredAsset
        switch outcome {
        case .failure(let error):
            let problem = Self.message(error)
            logger.warning("\(name) could not be fetched: \(problem); skipped until it is")
            stored = StoredAsset(url: url, file: nil, bytes: 0, checksum: 0, status: .failed(problem, at: clock.now()))
        case .success(.tooLarge(let length)):
            let problem = "\(length.map { "\($0) bytes" } ?? "it is"), more than launch.splash.maxBytes (\(limits.maxBytes))"
            logger.warning("\(name) is not valid: \(problem); skipped")
            // The server's length is outside input: kept within what a stored row may say.
            stored = StoredAsset(url: url, file: nil, bytes: Int(min(max(length ?? 0, 0), 1 << 40)), checksum: 0, status: .invalid(problem))
        case .success(.bytes(let bytes)):
            if let store {
                do {
                    try store.markChecking(url, bytes: bytes.count, checksum: XXHash64.hash(bytes))
                } catch {
                    logger.warning("launch state not saved: \(error)")
                }
            }
            do {
                let report = try await checker.check(bytes, limits: limits, measuringPastLimits: false)
                if Task.isCancelled { return forgetCheck(url) }
                stored = await keep(bytes, from: url, report: report, name: name)
            } catch {
                if Task.isCancelled { return forgetCheck(url) }
                let problem = Self.message(error)
                logger.warning("\(name) could not be checked: \(problem); tried again later")
                stored = StoredAsset(url: url, file: nil, bytes: bytes.count, checksum: XXHash64.hash(bytes), status: .failed(problem, at: clock.now()))
            }
        }
        save(LaunchStateChanges(upserts: [stored]))
        perform(policy.assetStored(url, stored.status, bytes: stored.bytes, at: clock.now()))
    }

    /// A check cut short by `close()` says nothing about the asset: its "checking" row goes, so
    /// the next open downloads it again instead of refusing it.
    private func forgetCheck(_ url: String) {
        save(LaunchStateChanges(deletes: [url]))
    }

    /// Writes a valid asset into the state folder; a refused one is only recorded.
    private func keep(_ bytes: [UInt8], from url: String, report: SplashAssetReport, name: String) async -> StoredAsset {
        let checksum = XXHash64.hash(bytes)
        guard report.isValid else {
            let problems = LaunchText.escaped(report.problems.joined(separator: "; "))
            logger.warning("\(name) is not valid: \(problems); skipped")
            return StoredAsset(url: url, file: nil, bytes: bytes.count, checksum: checksum, status: .invalid(problems))
        }
        let file = folder.fileName(for: url, taken: Set(files.filter { $0.key != url }.values))
        let folder = self.folder
        do {
            try await BlockingPool.shared.run { try folder.writeAsset(bytes, name: file) }
        } catch {
            let problem = Self.message(error)
            logger.warning("\(name) could not be stored: \(problem)")
            return StoredAsset(url: url, file: nil, bytes: bytes.count, checksum: checksum, status: .failed(problem, at: clock.now()))
        }
        files[url] = file
        return StoredAsset(url: url, file: file, bytes: bytes.count, checksum: checksum, status: .valid)
    }

    private static func message(_ error: any Error) -> String {
        (error as? ReelError)?.description ?? "\(error)"
    }
}
