import Foundation
import ReelCore
import ReelFeed
import ReelManifest
import ReelNet

/// Where a feed's pages come from: the app's paginated API. The engine asks for a page when the
/// viewport nears the loaded end and hands it to the coordinator when it arrives.
public protocol FeedSource: Sendable {
    /// The page at `cursor`; throws when it cannot be had.
    func page(_ cursor: FeedCursor) async throws -> FeedPage
    /// Relative video and image URLs in its pages resolve against it.
    var baseURL: URL { get }
}

/// Pages a feed catalog (`video-feed.json`, as the bundled samples carry) planned into widgets
/// by the configuration, as an app paging a JSON catalog would: every page at once.
public struct CatalogFeedSource: FeedSource {
    public let baseURL: URL
    let api: FeedAPI

    public init(catalog: FeedCatalog, baseURL: URL, config: ReelConfig) {
        self.baseURL = baseURL
        api = FeedAPI(catalog: catalog, config: config)
    }

    /// The catalog at `url` fetched through `factory` (over HTTP, or a local file when the
    /// factory allows them); relative URLs in it resolve against its folder.
    public static func load(_ url: URL, factory: any DataSourceFactory, config: ReelConfig) async throws -> CatalogFeedSource {
        let data = try await BlockingPool.shared.run { try factory.fetch(DataSpec(url: url, kind: .playlist), limit: 32 << 20) }
        let catalog = try FeedCatalog.parse(bytes: data, source: url.absoluteString)
        return CatalogFeedSource(catalog: catalog, baseURL: url.deletingLastPathComponent(), config: config)
    }

    public func page(_ cursor: FeedCursor) async throws -> FeedPage {
        api.page(cursor)
    }
}
