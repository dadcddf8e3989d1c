import Foundation
import ReelCore
import ReelStore
import ReelEngine
import ReelMedia
import ReelFeed
import ReelNet

/// The network stack the viewer's engine reads through, opened and closed as one: one transfer
/// engine with its bandwidth meter, a fresh disk cache in a temporary folder (deleted at the
/// end), and the cache-backed data sources over them, as `reel feed run` builds them. The one
/// place the viewer makes an engine.
struct EngineStack: Sendable {
    let transfers: TransferEngine
    /// Reads from the network, for the catalog and the launch controller.
    let network: URLDataSourceFactory
    private let cache: Cache?
    private let folder: URL

    /// Opens the stack for `config`.
    static func open(config: ReelConfig) async throws -> EngineStack {
        let transfers = TransferEngine(options: NetworkOptions(config.network), meter: BandwidthMeter(config: config))
        let network = URLDataSourceFactory(engine: transfers, allowLocalFiles: false)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-view-\(UUID().uuidString)")
        var cache: Cache?
        if config.cache.enabled {
            let maxBytes = Int64(config.cache.maxBytes)
            do {
                cache = try await BlockingPool.shared.run { try Cache.openOrThrow(directory: folder, maxBytes: maxBytes) }
            } catch {
                _ = try? await BlockingPool.shared.run { transfers.shutdown() }
                throw error
            }
        }
        return EngineStack(transfers: transfers, network: network, cache: cache, folder: folder)
    }

    /// Reads from the network and local files, for the launch controller (a local splash
    /// configuration).
    var launchFactory: URLDataSourceFactory { URLDataSourceFactory(engine: transfers, allowLocalFiles: true) }

    /// An engine on this stack keeping pictures for the screen, and with `sound` the sound of its
    /// shorts for the speaker.
    func makeEngine(config: ReelConfig, source: any FeedSource, screen: Size, clock: EngineClock, sound: SoundFormat?) -> FeedEngine {
        let cacheFactory = cache.map { CacheDataSourceFactory(cache: $0, upstream: network, origin: .playback) }
        return FeedEngine(config: config, source: source, factory: cacheFactory ?? network, cacheFactory: cacheFactory,
                          screen: screen, clock: clock, pictures: true, sound: sound)
    }

    /// Closes the cache and stops the transfer engine (both block, so on a pool thread), then
    /// deletes the cache folder.
    func close() async {
        let (cache, transfers, folder) = (self.cache, self.transfers, self.folder)
        _ = try? await BlockingPool.shared.run {
            cache?.close()
            transfers.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
