import Foundation
import ReelCore
import ReelLaunch
import ReelManifest
import ReelNet

/// Reads a splash asset named on the command line (a path or an http(s) URL) whole, refusing
/// one of more than `limit` bytes before reading it.
enum SplashAssetInput {
    static func read(_ text: String, limit: Int, network: NetworkSettings) async throws -> [UInt8] {
        let url = try InputLocation.parse(text)
        let factory = URLDataSourceFactory(engine: TransferEngine(options: NetworkOptions(network)), allowLocalFiles: url.isFileURL)
        return try await BlockingPool.shared.run { cancellation in
            if url.isFileURL {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                    throw ReelError(.notFound, "asset '\(text)' not found")
                }
                guard !isDirectory.boolValue else { throw ReelError(.invalidInput, "asset '\(text)' is a directory, not a file") }
            }
            return try factory.fetch(DataSpec(url: url, kind: .media), cancellation: cancellation, limit: limit)
        }
    }
}
