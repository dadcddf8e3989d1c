import Foundation
import ReelCore
import Testing

/// The one pool for blocking work: bounded, reused threads, cancellation before and during a job;
/// and the change signal waits are built on.
@Suite("BlockingPool and ChangeSignal")
struct BlockingPoolTests {
    /// A gate jobs block on until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
    }

    @Test func runsWorkOffThePoolAndReturnsItsResultOrError() async throws {
        let pool = BlockingPool(name: "test.pool", maxThreads: 2)
        #expect(try await pool.run { 6 * 7 } == 42)
        await #expect(throws: ReelError.self) { try await pool.run { throw ReelError(.invalidInput, "no") } }
    }

    @Test func neverStartsMoreThreadsThanItsBoundAndQueuesTheRest() async throws {
        let pool = BlockingPool(name: "test.pool", maxThreads: 2)
        let gate = Gate()
        let started = Watched<[Int]>([])
        let jobs = (0..<5).map { index in
            Task { try await pool.run { started.update { $0.append(index) }; gate.wait(); return index } }
        }
        #expect(await started.wait { $0.count == 2 })
        // The other three tasks queue their jobs when they get to run, which may be later.
        #expect(await pool.changes.wait { pool.statistics.queued == 3 }, "\(pool.statistics)")
        #expect(pool.statistics.threads == 2 && started.current.count == 2, "\(pool.statistics)")
        gate.open(5)
        var results: [Int] = []
        for job in jobs { results.append(try await job.value) }
        #expect(results == [0, 1, 2, 3, 4])
        #expect(pool.statistics.threads <= 2)
        let order = started.current
        #expect(Set(order) == Set(0..<5) && order.count == 5)
    }

    @Test func aTaskCancelledWhileItsJobWaitsNeverRunsIt() async throws {
        let pool = BlockingPool(name: "test.pool", maxThreads: 1)
        let gate = Gate()
        let started = Watched(0)
        let blocker = Task { try await pool.run { started.update { $0 += 1 }; gate.wait() } }
        #expect(await started.wait { $0 == 1 })
        let ran = Watched(false)
        let queued = Task { try await pool.run { ran.update { $0 = true } } }
        #expect(await pool.changes.wait { pool.statistics.queued == 1 })
        queued.cancel()
        let error = await #expect(throws: ReelError.self) { try await queued.value }
        #expect(error?.code == .cancelled)
        #expect(pool.statistics.queued == 0)
        gate.open(1)
        try await blocker.value
        #expect(ran.current == false)
    }

    @Test func aTaskCancelledWhileItsJobRunsFiresTheJobsCancellation() async throws {
        let pool = BlockingPool(name: "test.pool", maxThreads: 1)
        let started = Watched(false)
        let job = Task {
            try await pool.run { cancellation -> Bool in
                let woken = DispatchSemaphore(value: 0)
                cancellation.onCancel { woken.signal() }
                started.update { $0 = true }
                woken.wait()
                return cancellation.isCancelled
            }
        }
        #expect(await started.wait { $0 })
        job.cancel()
        #expect(try await job.value)
    }

    @Test func aWaitEndsOnTheChangeThatMakesItsConditionTrueOrAtItsLimit() async {
        let value = Watched(0)
        async let reached = value.wait { $0 >= 3 }
        for _ in 0..<3 { value.update { $0 += 1 } }
        #expect(await reached)
        #expect(await value.wait(limit: .milliseconds(20)) { $0 == 99 } == false)
        #expect(await value.wait(limit: .milliseconds(20)) { $0 == 3 })
    }
}
