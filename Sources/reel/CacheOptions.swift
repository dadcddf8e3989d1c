import ArgumentParser
import Foundation
import ReelCore
import ReelNet

/// `--cache DIR` and `--cache-max-bytes N`, for every command that uses the disk cache.
struct CacheOptions: ParsableArguments {
    @Option(name: .customLong("cache"), help: ArgumentHelp(
        "Cache folder. Default: cache.directory, else $XDG_CACHE_HOME/reel, else ~/.cache/reel.", valueName: "dir"))
    var directory: String?

    @Option(name: .customLong("cache-max-bytes"), help: ArgumentHelp(
        "Size limit of the cache in bytes (content and index); least recently used entries are evicted beyond it. Default: cache.maxBytes.",
        valueName: "n"))
    var maxBytes: Int64?

    func validate() throws {
        if let maxBytes, maxBytes < 0 { throw ValidationError("--cache-max-bytes must be 0 or more (got \(maxBytes))") }
    }

    func location(_ settings: ReelConfig) -> URL {
        CacheLocation.directory(explicit: directory, configured: settings.cache.directory)
    }

    func limit(_ settings: ReelConfig) -> Int64 {
        maxBytes ?? Int64(settings.cache.maxBytes)
    }

    /// Opens the cache for playback: a folder that cannot be used gives one warning and a
    /// disabled cache (playback goes on without it).
    func open(_ settings: ReelConfig) async throws -> Cache {
        let directory = location(settings), limit = limit(settings)
        return try await BlockingPool.shared.run {
            Cache.open(directory: directory, maxBytes: limit)
        }
    }

    /// Opens the cache for maintenance or prefetch: a folder that cannot be used is an error.
    func openOrThrow(_ settings: ReelConfig) async throws -> Cache {
        let directory = location(settings), limit = limit(settings)
        return try await BlockingPool.shared.run {
            try Cache.openOrThrow(directory: directory, maxBytes: limit)
        }
    }
}

extension Cache {
    /// Closes the cache on a thread of its own (it waits for pending writes).
    func closeAsync() async {
        _ = try? await BlockingPool.shared.run { self.close() }
    }
}
