import Foundation
import ReelCore
import ReelManifest
import ReelStore

/// The network side that Reel's work shares, opened and closed as one: the disk cache (when
/// there is one), one transfer engine with its bandwidth meter (starting from the estimate the
/// cache remembers for the network), and the data-source factories made from them. Made and
/// closed by `with(config:options:_:)`, in every path, in the manner of async-http-client's
/// `withHTTPClient`:
///
///     try await ReelStack.with(config: config) { stack in
///         let engine = FeedEngine(stack: stack, source: source)
///         ...
///     }
public final class ReelStack: Sendable {
    /// Where the cache lives, if anywhere.
    public enum CacheChoice: Sendable, Hashable {
        /// `cache.directory` (else the user's cache folder) when `cache.enabled`.
        case configured
        /// This folder.
        case folder(URL)
        /// A new folder of its own, deleted when the stack closes (a run that must not depend on
        /// what an earlier run cached, nor leave anything behind).
        case temporary
        /// No cache: every read goes to the network.
        case none
    }

    /// How the stack is made.
    public struct Options: Sendable {
        public var cache: CacheChoice = .configured
        /// `cache.maxBytes` when nil.
        public var cacheMaxBytes: Int64?
        /// A cache that cannot be used is an error (maintenance, prefetch) rather than one
        /// warning and no cache (playback goes on without it).
        public var requiresCache = false
        /// Play only what the cache holds.
        public var offline = false
        /// Local files may be read (a local input's own files).
        public var allowLocalFiles = false
        /// What the cache's readers are, for its accounting.
        public var origin: CacheOrigin = .playback
        /// Start the meter from the estimate the cache remembers, and remember it at close.
        public var remembersEstimate = true

        public init() {}
    }

    public let config: ReelConfig
    /// The disk cache; nil without one (or when it could not be opened and was not required).
    public let cache: Cache?
    public let transfers: TransferEngine
    public var meter: BandwidthMeter { transfers.meter }
    /// Which hosts answered: the cache serves what it holds for a host that does not.
    public let reachability: NetworkReachability
    /// Reads over the network (libcurl), the cache's upstream.
    public let network: URLDataSourceFactory
    /// Reads through the cache when there is one.
    public let cacheFactory: CacheDataSourceFactory?
    private let options: Options
    private let temporaryFolder: URL?

    /// What every read should go through: the cache when there is one, else the network.
    public var factory: any DataSourceFactory { cacheFactory ?? network }

    private init(config: ReelConfig, options: Options, cache: Cache?, temporaryFolder: URL?) {
        self.config = config
        self.options = options
        self.cache = cache
        self.temporaryFolder = temporaryFolder
        reachability = NetworkReachability(forcedOffline: options.offline)
        let meter = options.remembersEstimate ? BandwidthMeter.remembered(config: config, cache: cache) : BandwidthMeter(config: config)
        let transfers = TransferEngine(options: NetworkOptions(config.network), meter: meter)
        let network = URLDataSourceFactory(engine: transfers, allowLocalFiles: options.allowLocalFiles)
        let reachability = self.reachability
        self.transfers = transfers
        self.network = network
        cacheFactory = cache.map { CacheDataSourceFactory(cache: $0, upstream: network, origin: options.origin, reachability: reachability) }
    }

    /// Opens a stack for `config`, runs `body` with it and closes it, whatever `body` does.
    public static func with<Result: Sendable>(config: ReelConfig, options: Options = Options(),
                                              _ body: (ReelStack) async throws -> Result) async throws -> Result {
        let stack = try await open(config: config, options: options)
        do {
            let result = try await body(stack)
            await stack.close()
            return result
        } catch {
            await stack.close()
            throw error
        }
    }

    /// Opens a stack; `close()` must follow. Prefer `with(config:options:_:)`.
    public static func open(config: ReelConfig, options: Options = Options()) async throws -> ReelStack {
        let maxBytes = options.cacheMaxBytes ?? Int64(config.cache.maxBytes)
        var folder: URL?
        var temporary: URL?
        switch options.cache {
        case .configured:
            if config.cache.enabled { folder = CacheLocation.directory(explicit: nil, configured: config.cache.directory) }
        case .folder(let url):
            folder = url
        case .temporary:
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-stack-\(UUID().uuidString)")
            folder = url
            temporary = url
        case .none:
            break
        }
        if options.offline && folder == nil {
            throw ReelError(.invalidConfig, "offline play reads the cache, but there is none (cache.enabled is false)")
        }
        let cache: Cache?
        if let folder {
            let requires = options.requiresCache || options.offline || temporary != nil
            cache = try await BlockingPool.shared.run {
                requires ? try Cache.openOrThrow(directory: folder, maxBytes: maxBytes) : Cache.open(directory: folder, maxBytes: maxBytes)
            }
            if options.offline, let cache, let reason = cache.disabledReason {
                _ = try? await BlockingPool.shared.run { cache.close() }
                throw ReelError(.cacheIO, "offline play reads the cache, but it cannot be used: \(reason)")
            }
        } else {
            cache = nil
        }
        return ReelStack(config: config, options: options, cache: cache, temporaryFolder: temporary)
    }

    /// Remembers the meter's estimate in the cache, stops the transfer engine (every transfer
    /// cancelled), closes the cache and deletes a temporary one. Blocking work runs on the
    /// blocking pool; safe to call more than once.
    public func close() async {
        let (cache, transfers, temporary, config) = (self.cache, self.transfers, temporaryFolder, self.config)
        let remembers = options.remembersEstimate
        _ = try? await BlockingPool.shared.run {
            if remembers, let cache { cache.remember(transfers.meter, config: config) }
            cache?.close()
            transfers.shutdown()
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
        }
    }
}
