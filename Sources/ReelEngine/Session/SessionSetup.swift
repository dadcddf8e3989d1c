import Foundation
import ReelCore
import ReelNet

/// What one feed session runs: the configuration, the catalog and the scroll trace, the base URL
/// the catalog's relative URLs resolve against, and the data sources every read goes through.
public struct SessionSetup: Sendable {
    public var config: ReelConfig
    public var catalog: FeedCatalog
    public var trace: ScrollTrace
    /// The catalog's and the merch images' relative URLs are resolved against it.
    public var baseURL: URL
    /// The screen in points (default: `device.screenWidth` x `device.screenHeight`).
    public var screen: Size?
    /// Makes every data source of the session (players, thumbnails): cache-backed normally.
    public var factory: any DataSourceFactory
    /// The same when it is cache-backed, for the prefetcher and its ledger; nil without a cache.
    public var cacheFactory: CacheDataSourceFactory?
    /// Seconds of a launch animation (a splash or the loading animation) before the feed shows:
    /// the trace starts after them, and with `launch.warmFeed` the session uses them to fetch
    /// the first page and the start of its first videos. 0: the feed shows at once.
    public var launchSeconds: Double = 0

    public init(config: ReelConfig, catalog: FeedCatalog, trace: ScrollTrace, baseURL: URL, screen: Size? = nil,
                factory: any DataSourceFactory, cacheFactory: CacheDataSourceFactory?) {
        self.config = config
        self.catalog = catalog
        self.trace = trace
        self.baseURL = baseURL
        self.screen = screen
        self.factory = factory
        self.cacheFactory = cacheFactory
    }

    /// `text` (a catalog or merch URL) as an absolute URL: relative ones against `baseURL`.
    public func resolve(_ text: String) -> URL? {
        URL(string: text, relativeTo: baseURL)?.absoluteURL
    }
}
