import Foundation

/// One thread of its own running jobs in the order they were handed off, in batches, until it is
/// shut down and the queued jobs have run. The serial executor of actors that block in C and the
/// cache's queue of writes both run on one; a thread that may block can wait until everything
/// handed off so far has run.
// @unchecked Sendable: `jobs`, `stopping`, `queued` and `done` are guarded by `condition`; the
// thread reads them only while holding it, and runs the jobs outside it.
package final class JobThread<Job: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopping = false
    /// Jobs handed off and jobs run, for `waitForAll`.
    private var queued = 0
    private var done = 0

    private let name: String
    private let stackSize: Int?

    /// A thread named `name`, not yet started: jobs handed off wait for `start(run:)`.
    package init(name: String, stackSize: Int? = nil) {
        self.name = name
        self.stackSize = stackSize
    }

    /// Starts the thread, running each job with `run` (once: the owner calls it from its
    /// initialiser, where `run` may capture the owner).
    package func start(run: @escaping @Sendable (Job) -> Void) {
        DedicatedThread.start(name: name, stackSize: stackSize) { [self] in self.runLoop(run) }
    }

    /// Runs `job` after everything handed off before it.
    package func submit(_ job: Job) {
        condition.lock()
        jobs.append(job)
        queued += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until every job handed off before the call has run. Never call it from a job.
    package func waitForAll() {
        condition.lock()
        let target = queued
        while done < target && !(stopping && jobs.isEmpty) { condition.wait() }
        condition.unlock()
    }

    /// Lets the thread end once the queued jobs have run.
    package func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func runLoop(_ run: (Job) -> Void) {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty && stopping {
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch {
                run(job)
                condition.lock()
                done += 1
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}
