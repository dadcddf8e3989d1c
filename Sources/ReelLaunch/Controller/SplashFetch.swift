import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// Fetches a whole small resource (a splash configuration, an asset) with Reel's own data
/// sources, refusing one over `limit` bytes as soon as its length shows, so memory stays bounded.
/// Blocking: call it on a `BlockingPool` thread.
enum SplashFetch {
    enum Outcome: Sendable {
        case bytes([UInt8])
        /// More than the limit (the announced length, when the server gave one).
        case tooLarge(Int64?)
    }

    static func fetch(_ url: URL, limit: Int, factory: any DataSourceFactory, cancellation: Cancellation) throws -> Outcome {
        let source = factory.makeDataSource(cancellation: cancellation)
        defer { source.close() }
        let length = try source.open(DataSpec(url: url, kind: .media))
        if let length, length > Int64(limit) { return .tooLarge(length) }
        let bytes = try source.read(upTo: limit + 1)
        return bytes.count > limit ? .tooLarge(length) : .bytes(bytes)
    }
}
