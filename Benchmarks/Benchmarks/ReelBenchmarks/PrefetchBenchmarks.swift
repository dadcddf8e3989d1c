import Benchmark
import Foundation
import ReelCore
import ReelNet
import ReelStore

/// The prefetch queue with 10,000 requests queued: one enqueue, one cancel, one reprioritise
/// (goal <= 20 us each), for the `PrefetchPolicy` state machine alone and through the
/// `Prefetcher` actor (paused as for a starving player, so nothing is fetched). Each measured
/// operation is undone unmeasured (an enqueued request cancelled, a cancelled one replaced), so
/// the queue stays at 10,000; stale heap entries and their compactions are measured as they come.
func prefetchBenchmarks() {
    let queued = 10_000
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let configuration = Benchmark.Configuration(metrics: metrics + [.throughput], scalingFactor: .one,
                                                maxDuration: .seconds(3), maxIterations: 200_000)

    /// The queue as ids and a random source, shared by one benchmark at a time.
    struct Queue {
        var ids: [PrefetchRequestID] = []
        var next: UInt64 = 0
        var random = SeededRandom(seed: 4)

        mutating func newID() -> PrefetchRequestID {
            next += 1
            return PrefetchRequestID(next)
        }

        mutating func priority() -> PrefetchPriority {
            PrefetchPriority(tier: Int(random.next() % 4), rank: Int(random.next() % 200))
        }

        mutating func category() -> PrefetchCategory {
            PrefetchCategory.allCases[Int(random.next() % 4)]
        }

        mutating func index() -> Int { Int(random.next() % UInt64(ids.count)) }
    }

    // MARK: The policy alone

    nonisolated(unsafe) var policy = PrefetchPolicy()
    nonisolated(unsafe) var policyQueue = Queue()

    func preparePolicy() {
        guard policyQueue.ids.isEmpty else { return }
        policy = PrefetchPolicy(limits: .init(cap: 2, starvingCap: 0))
        _ = policy.setStarving(true)
        for _ in 0..<queued {
            let id = policyQueue.newID()
            _ = policy.enqueue(id, priority: policyQueue.priority())
            policyQueue.ids.append(id)
        }
    }

    var policyConfiguration = configuration
    policyConfiguration.setup = { preparePolicy() }

    Benchmark("Prefetch policy enqueue, 10,000 queued", configuration: policyConfiguration) { benchmark in
        let id = policyQueue.newID()
        let priority = policyQueue.priority()
        benchmark.startMeasurement()
        blackHole(policy.enqueue(id, priority: priority))
        benchmark.stopMeasurement()
        _ = policy.cancel(id)
    }

    Benchmark("Prefetch policy cancel, 10,000 queued", configuration: policyConfiguration) { benchmark in
        let index = policyQueue.index()
        let id = policyQueue.ids[index]
        benchmark.startMeasurement()
        blackHole(policy.cancel(id))
        benchmark.stopMeasurement()
        let replacement = policyQueue.newID()
        _ = policy.enqueue(replacement, priority: policyQueue.priority())
        policyQueue.ids[index] = replacement
    }

    Benchmark("Prefetch policy reprioritize, 10,000 queued", configuration: policyConfiguration) { benchmark in
        let id = policyQueue.ids[policyQueue.index()]
        let priority = policyQueue.priority()
        benchmark.startMeasurement()
        blackHole(policy.reprioritize(id, to: priority))
        benchmark.stopMeasurement()
    }

    // MARK: Through the actor

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-prefetch-\(getpid())")
    nonisolated(unsafe) var prefetcher: Prefetcher?
    nonisolated(unsafe) var cache: Cache?
    nonisolated(unsafe) var actorQueue = Queue()

    /// A paused prefetcher with 10,000 queued requests for URLs nobody serves (none is fetched).
    func prepareActor() async -> Prefetcher {
        if let prefetcher { return prefetcher }
        try? FileManager.default.removeItem(at: directory)
        let opened = Cache.open(directory: directory, maxBytes: 1 << 30)
        let factory = CacheDataSourceFactory(cache: opened, upstream: URLDataSourceFactory(engine: TransferEngine(), allowLocalFiles: false),
                                             origin: .prefetch)
        // Events nobody reads: keep only the newest few.
        let fresh = Prefetcher(factory: factory, config: ReelConfig(), eventBufferLimit: 256)
        await fresh.setPlaybackStarving(true)
        for index in 0..<queued {
            let id = await fresh.enqueue(request(index))
            actorQueue.ids.append(id)
        }
        cache = opened
        prefetcher = fresh
        return fresh
    }

    func request(_ index: Int) -> PrefetchRequest {
        PrefetchRequest(videoURL: URL(string: "https://cdn.example/v\(index)/index.m3u8")!, category: actorQueue.category(),
                        rank: Int(actorQueue.random.next() % 200), tag: "card-\(index)")
    }

    var actorConfiguration = configuration
    actorConfiguration.setup = { _ = await prepareActor() }
    actorConfiguration.teardown = {
        if let prefetcher { await prefetcher.shutdown() }
        prefetcher = nil
        cache?.close()
        cache = nil
        actorQueue = Queue()
        try? FileManager.default.removeItem(at: directory)
    }

    Benchmark("Prefetcher enqueue (actor), 10,000 queued", configuration: actorConfiguration) { benchmark async in
        let prefetcher = await prepareActor()
        let request = request(Int(actorQueue.next))
        benchmark.startMeasurement()
        let id = await prefetcher.enqueue(request)
        benchmark.stopMeasurement()
        await prefetcher.cancel(id)
    }

    Benchmark("Prefetcher cancel (actor), 10,000 queued", configuration: actorConfiguration) { benchmark async in
        let prefetcher = await prepareActor()
        let index = actorQueue.index()
        let id = actorQueue.ids[index]
        benchmark.startMeasurement()
        await prefetcher.cancel(id)
        benchmark.stopMeasurement()
        actorQueue.ids[index] = await prefetcher.enqueue(request(index))
    }

    Benchmark("Prefetcher reprioritize (actor), 10,000 queued", configuration: actorConfiguration) { benchmark async in
        let prefetcher = await prepareActor()
        let id = actorQueue.ids[actorQueue.index()]
        let category = actorQueue.category()
        let rank = Int(actorQueue.random.next() % 200)
        benchmark.startMeasurement()
        await prefetcher.reprioritize(id, category: category, rank: rank)
        benchmark.stopMeasurement()
    }
}
