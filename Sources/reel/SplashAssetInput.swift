import Foundation
import ReelCore
import ReelLaunch
import ReelManifest
import ReelNet

/// Reads a splash asset named on the command line (a path or an http(s) URL) whole, refusing
/// one of more than `limit` bytes before reading it.
enum SplashAssetInput {
    static func read(_ text: String, limit: Int, config: ReelConfig) async throws -> [UInt8] {
        let url = try InputLocation.parse(text)
        var options = ReelStack.Options()
        options.cache = .none
        options.allowLocalFiles = url.isFileURL
        return try await ReelStack.with(config: config, options: options) { stack in
            try await read(text, url: url, limit: limit, factory: stack.network)
        }
    }

    private static func read(_ text: String, url: URL, limit: Int, factory: URLDataSourceFactory) async throws -> [UInt8] {
        try await BlockingPool.shared.run { cancellation in
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
