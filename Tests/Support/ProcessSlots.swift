import Foundation

/// At most a few child processes (`reel`, and the other programs tests run) at once in the test
/// process. Swift Testing starts every test together: unbounded, some eighty decoding processes
/// ran at once on two cores (load above 100), which starved the test process's own threads (the
/// CDN simulator, the transfer engine, the cooperative pool) for seconds at a time, past the
/// low-speed watchdog and the time limits tests rely on. Waiting for a slot happens before a
/// process starts, so it never counts against that process's own timeout.
package actor ProcessSlots {
    /// The slots every test shares: two per core.
    package static let shared = ProcessSlots(limit: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))

    private let limit: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` holding a slot, waiting first while every slot is taken (first come, first served).
    package nonisolated func withSlot<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    /// Takes a slot, waiting while all are taken; give it back with `release()`.
    package func acquire() async {
        if inUse < limit {
            inUse += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back: to the longest waiter, or to the pool.
    package func release() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
