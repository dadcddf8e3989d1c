import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelStore
import ReelTestSupport

/// A served scratch folder, a cache folder, an engine, and helpers to read through the cache on
/// dedicated threads, for the cache tests.
struct CacheHarness {
    let root: URL
    let cacheDirectory: URL
    let engine: TransferEngine
    let server: CDNServer
    let requests: RequestRecorder

    /// Random bytes (seeded by `seed`) of `size`.
    static func bytes(_ size: Int, seed: UInt64 = 1) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// Serves `files` (name -> bytes) for `body`; everything is removed afterwards.
    static func with<T>(_ files: [String: [UInt8]], profile: NetworkProfile = .unlimited,
                        _ body: (CacheHarness) async throws -> T) async throws -> T {
        let root = try makeScratchFolder("reel-cache-served")
        let cacheDirectory = try makeScratchFolder("reel-cache")
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: cacheDirectory)
        }
        for (name, bytes) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let requests = RequestRecorder()
        // These tests count requests: only a real stall may trip the watchdog.
        var options = NetworkOptions.patient
        options.retryBackoffMs = 10
        let engine = TransferEngine(options: options)
        defer { BlockingPool.shared.start { engine.shutdown() } }
        let configuration = CDNServerConfiguration(root: root, profile: profile, requestLog: { requests.record($0) })
        return try await withServer(configuration) { server in
            try await body(CacheHarness(root: root, cacheDirectory: cacheDirectory, engine: engine, server: server,
                                        requests: requests))
        }
    }

    var network: URLDataSourceFactory { URLDataSourceFactory(engine: engine, allowLocalFiles: false) }

    func url(_ name: String) -> URL { server.url(for: name) }

    /// Opens the cache on a dedicated thread.
    func openCache(maxBytes: Int64 = 64 << 20, warnings: WarningLog = WarningLog()) async throws -> Cache {
        let directory = cacheDirectory
        return try await BlockingPool.shared.run { Cache.open(directory: directory, maxBytes: maxBytes, logger: warnings.logger()) }
    }

    func factory(_ cache: Cache, origin: CacheOrigin = .playback,
                 reachability: NetworkReachability = NetworkReachability()) -> CacheDataSourceFactory {
        CacheDataSourceFactory(cache: cache, upstream: network, origin: origin, reachability: reachability)
    }

    /// Reads `spec` whole through a new source of `factory` on a dedicated thread.
    static func read(_ factory: any DataSourceFactory, _ spec: DataSpec, upTo limit: Int = .max,
                     cancellation: Cancellation = Cancellation()) async throws -> ([UInt8], TransferMetrics) {
        try await BlockingPool.shared.run {
            let source = factory.makeDataSource(cancellation: cancellation)
            defer { source.close() }
            _ = try source.open(spec)
            var result: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while result.count < limit {
                let want = min(buffer.count, limit - result.count)
                let count = try buffer.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
                if count == 0 { break }
                result += buffer[..<count]
            }
            source.close()
            return (result, source.metrics)
        }
    }

    /// Blocks (on a dedicated thread) until pending seals and index writes are done.
    static func settle(_ cache: Cache) async throws {
        try await BlockingPool.shared.run { cache.waitForPendingWrites() }
    }

    static func close(_ cache: Cache) async throws {
        try await BlockingPool.shared.run { cache.close() }
    }

    /// Requests the server has logged for `path` ("/a.bin") so far.
    func requests(for path: String) -> [RequestLogEntry] {
        requests.entries.filter { $0.path == path }
    }

    /// Requests for `path` once the server has logged every one it has started: the simulator
    /// logs a request when it sees it end, which can be after the client holds all of it.
    func finishedRequests(for path: String) async -> [RequestLogEntry] {
        // The recorder grows last (after the bill counts the request), so its signal is enough.
        let server = server
        _ = await requests.list.wait { entries in
            entries.count { $0.path == path } >= server.bill().paths[path]?.requests ?? 0
        }
        return requests(for: path)
    }
}

/// Every request the simulator finished, in order.
final class RequestRecorder: Sendable {
    let list = Watched<[RequestLogEntry]>([])
    func record(_ entry: RequestLogEntry) { list.update { $0.append(entry) } }
    var entries: [RequestLogEntry] { list.current }
}

/// Warnings a cache logged.
typealias WarningLog = LogRecorder

/// Cache events an observer saw.
final class EventLog: Sendable {
    let list = Watched<[CacheEvent]>([])
    func add(_ event: CacheEvent) { list.update { $0.append(event) } }
    var events: [CacheEvent] { list.current }

    var evictedKeys: [String] {
        events.compactMap { if case .evicted(let key, _, _, _, .capacity) = $0 { key } else { nil } }
    }
}

/// The content files under a cache folder (path -> bytes on disk).
func contentFiles(_ directory: URL) -> [URL] {
    let data = directory.appendingPathComponent("data")
    guard let enumerator = FileManager.default.enumerator(at: data, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    return enumerator.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
}

/// Bytes of every file under `directory` (apparent sizes), the measure of "the cache folder's size".
func folderBytes(_ directory: URL) -> Int64 {
    guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
    var total: Int64 = 0
    for case let url as URL in enumerator {
        let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
        if values?.isRegularFile == true { total += Int64(values?.fileSize ?? 0) }
    }
    return total
}

/// A data source handed from one awaited `BlockingPool` job to the next.
// @unchecked Sendable: the calls run one after another (each awaited), so one thread at a time
// uses the source, as `DataSource` requires.
final class SourceBox: @unchecked Sendable {
    let source: any DataSource
    init(_ source: any DataSource) { self.source = source }
}
