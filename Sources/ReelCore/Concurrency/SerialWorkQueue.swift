import Foundation

/// Closures run in order on one dedicated thread: work a caller hands off without waiting (the
/// cache's seals and index writes), and a way to wait, from a thread that may block, until
/// everything handed off so far has run. The thread ends once `shutdown()` is called and the
/// queued work has run.
// @unchecked Sendable: `jobs` and `stopping` are guarded by `condition`; the thread reads them only
// while holding it.
public final class SerialWorkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopping = false
    /// Jobs handed off and jobs run, for `waitForAll`.
    private var queued = 0
    private var done = 0

    public init(name: String) {
        DedicatedThread.start(name: name) { [self] in self.runLoop() }
    }

    deinit { shutdown() }

    /// Runs `job` after everything handed off before it.
    public func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        queued += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until every job handed off before the call has run. Never call it from a job.
    public func waitForAll() {
        condition.lock()
        let target = queued
        while done < target && !(stopping && jobs.isEmpty) { condition.wait() }
        condition.unlock()
    }

    /// Lets the thread end once the queued work has run.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func runLoop() {
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
                job()
                condition.lock()
                done += 1
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}
