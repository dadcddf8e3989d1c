import Foundation
import ReelCore
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// Sample streams served through a `CacheHarness`, and a prefetcher over its cache whose events
/// a log collects, for the prefetcher tests.
enum PrefetchFixture {
    /// The files of `Samples/streams/<name>` as `<name>/<file>` -> bytes.
    static func sample(_ names: String...) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in names {
            let folder = PackagePaths.samples.appendingPathComponent("streams/\(name)")
            let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!listing.isEmpty, "sample \(name) is missing")
            for file in listing {
                files["\(name)/\(file)"] = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            }
        }
        return files
    }

    /// A prefetcher over `cache` with `configure`d settings, and the log of its events.
    static func prefetcher(_ harness: CacheHarness, _ cache: Cache, includeAudio: Bool = true,
                           configure: (inout ReelConfig) -> Void = { _ in }) -> (Prefetcher, PrefetchEventLog) {
        var config = ReelConfig()
        configure(&config)
        let prefetcher = Prefetcher(factory: harness.factory(cache), config: config, includeAudio: includeAudio)
        let log = PrefetchEventLog()
        // The stream alone, not the prefetcher: a test that ends early lets it go (its deinit
        // finishes the stream and this task).
        let events = prefetcher.events
        Task {
            for await event in events { await log.add(event) }
        }
        return (prefetcher, log)
    }

    /// The size of a served file.
    static func size(_ files: [String: [UInt8]], _ name: String) -> Int { files[name]?.count ?? -1 }
}

/// The events a prefetcher emitted, in order, with a way to wait for one.
actor PrefetchEventLog {
    typealias Condition = @Sendable (_ events: [PrefetchEvent], _ counts: [String: Int]) -> Bool

    private(set) var events: [PrefetchEvent] = []
    /// Events so far by name.
    private(set) var counts: [String: Int] = [:]
    private var waiters: [Int: (condition: Condition, continuation: CheckedContinuation<Bool, Never>)] = [:]
    private var nextWaiter = 0

    func add(_ event: PrefetchEvent) {
        events.append(event)
        counts[event.name, default: 0] += 1
        for (id, waiter) in waiters where waiter.condition(events, counts) {
            waiters[id] = nil
            waiter.continuation.resume(returning: true)
        }
    }

    /// Waits until `condition` holds over the events so far (true), or a minute passes (false:
    /// a guard against hanging, not a timing).
    func wait(_ condition: @escaping Condition) async -> Bool {
        if condition(events, counts) { return true }
        nextWaiter += 1
        let id = nextWaiter
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(60))
            await self?.expire(id)
        }
        return await withCheckedContinuation { waiters[id] = (condition, $0) }
    }

    /// Waits for an event named `name` about request `id`.
    func wait(for name: String, of id: PrefetchRequestID) async -> Bool {
        await wait { events, _ in events.contains { $0.id == id && $0.name == name } }
    }

    /// Waits until `count` events named `name` have arrived.
    func wait(count: Int, of name: String) async -> Bool {
        await wait { _, counts in counts[name, default: 0] >= count }
    }

    private func expire(_ id: Int) {
        waiters.removeValue(forKey: id)?.continuation.resume(returning: false)
    }

    /// The events named `name`, in order.
    func named(_ name: String) -> [PrefetchEvent] { events.filter { $0.name == name } }

    /// Waits until `prefetcher` is idle and this log holds every event it emitted: the log's
    /// consumer task runs apart from the prefetcher, so it may trail `waitUntilIdle`.
    func idle(_ prefetcher: Prefetcher) async -> Bool {
        await prefetcher.waitUntilIdle()
        let emitted = await prefetcher.ledger().eventCount
        return await wait { events, _ in events.count >= emitted }
    }
}

extension PrefetchLedger {
    /// Events the prefetcher emitted: each counter counts one kind of event.
    var eventCount: Int { queued + started + completed + cancelled + failed + suspended + retried }
}
