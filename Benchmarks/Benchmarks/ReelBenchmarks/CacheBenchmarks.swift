import Benchmark
import Foundation
import ReelManifest
import ReelNet
import ReelStore

/// The disk cache with 50,000 entries: one lookup with its LRU touch (goal p99 <= 100 us) and
/// loading the index when the cache opens (goal <= 200 ms). The cache is built once, in a
/// temporary folder, from 64-byte entries.
func cacheBenchmarks() {
    let entryCount = 50_000
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-cache-\(getpid())")
    let keys = (0..<entryCount).map { "https://cdn.example/v\($0 / 8)/seg_\($0 % 8).ts" }
    nonisolated(unsafe) var cache: Cache?

    /// Builds the 50,000-entry cache once (about ten seconds: one small file per entry).
    func prepare() -> Cache {
        if let cache { return cache }
        try? FileManager.default.removeItem(at: directory)
        let fresh = Cache.open(directory: directory, maxBytes: 1 << 34)
        let payload = [UInt8](repeating: 0x5A, count: 64)
        for key in keys {
            fresh.store(payload, for: DataSpec(url: URL(string: key)!, kind: .segment), durable: false)
        }
        fresh.waitForPendingWrites()
        cache = fresh
        return fresh
    }

    Benchmark("Cache lookup + LRU touch, 50,000 entries",
              configuration: .init(metrics: metrics + [.throughput], scalingFactor: .one, maxDuration: .seconds(3),
                                   maxIterations: 200_000, setup: { _ = prepare() })) { benchmark in
        let cache = prepare()
        var random = SystemRandomNumberGenerator()
        let key = keys[Int.random(in: 0..<entryCount, using: &random)]
        benchmark.startMeasurement()
        blackHole(cache.lookup(key))
        benchmark.stopMeasurement()
    }

    Benchmark("Cache index load, 50,000 entries",
              configuration: .init(metrics: metrics + [.peakMemoryResident], scalingFactor: .one,
                                   maxDuration: .seconds(10), maxIterations: 20, setup: { _ = prepare() },
                                   teardown: {
                                       cache?.close()
                                       cache = nil
                                       try? FileManager.default.removeItem(at: directory)
                                   })) { benchmark in
        prepare().close()
        benchmark.startMeasurement()
        let reopened = try Cache.openOrThrow(directory: directory, maxBytes: 1 << 34)
        benchmark.stopMeasurement()
        precondition(reopened.entries.count == entryCount, "the index lost entries: \(reopened.entries.count)")
        cache = reopened
    }
}
