import Foundation
import ReelCore
import ReelManifest
import ReelStore

/// Makes `CacheDataSource`s over an upstream factory, sharing one cache, one origin tag and one
/// reachability: hand it to `Playback` (or a prefetcher) in place of the network factory.
public struct CacheDataSourceFactory: DataSourceFactory {
    public let cache: Cache
    public let upstream: any DataSourceFactory
    public let origin: CacheOrigin
    public let reachability: NetworkReachability

    public init(cache: Cache, upstream: any DataSourceFactory, origin: CacheOrigin = .playback,
                reachability: NetworkReachability = NetworkReachability()) {
        self.cache = cache
        self.upstream = upstream
        self.origin = origin
        self.reachability = reachability
    }

    public func makeDataSource(cancellation: Cancellation) -> any DataSource {
        CacheDataSource(cache: cache, upstream: upstream, cancellation: cancellation, origin: origin,
                        reachability: reachability)
    }

    public var cacheContext: CacheContext? { CacheContext(cache: cache, reachability: reachability) }

    public var bandwidthMeter: BandwidthMeter? { upstream.bandwidthMeter }

    /// The same factory with another origin tag (prefetch and playback share a cache).
    public func withOrigin(_ origin: CacheOrigin) -> CacheDataSourceFactory {
        CacheDataSourceFactory(cache: cache, upstream: upstream, origin: origin, reachability: reachability)
    }

    /// A whole small resource (a thumbnail, a merch image, a key) through the cache: from disk
    /// when cached, else fetched and cached. Blocking: call it from a dedicated thread.
    public func fetchResource(_ spec: DataSpec, limit: Int = 16 << 20, cancellation: Cancellation = Cancellation()) throws -> FetchedResource {
        let source = makeDataSource(cancellation: cancellation)
        defer { source.close() }
        _ = try source.open(spec)
        let bytes = try source.readToEnd(limit: limit, url: spec.url)
        source.close()
        return FetchedResource(bytes: bytes, metrics: source.metrics)
    }

    /// `fetchResource` for async callers: runs on a thread of its own, never on the cooperative pool.
    public func fetchResource(_ url: URL, kind: ResourceKind = .image, limit: Int = 16 << 20) async throws -> FetchedResource {
        try await BlockingPool.shared.run {
            try fetchResource(DataSpec(url: url, kind: kind), limit: limit)
        }
    }
}

/// A whole resource and what fetching it cost (`metrics.cacheHit` says whether it came from disk).
public struct FetchedResource: Sendable {
    public var bytes: [UInt8]
    public var metrics: TransferMetrics
}
