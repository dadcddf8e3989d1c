import DequeModule
import Foundation

/// Runs blocking work (file I/O, SQLite, a blocking data-source read, waiting for a child process)
/// off the cooperative pool, on a bounded set of reused threads, and awaits its result: on Linux
/// the pool has one thread per core, and one blocked thread starves every task.
///
/// Cancellation-aware: a task cancelled while its job waits in the queue never runs it (the await
/// throws `.cancelled` at once); cancelled while the job runs, the job's `Cancellation` fires, so
/// a reader registered on it wakes. Threads start on demand up to `maxThreads` and end after
/// `idleTimeout` without work; past `maxThreads`, jobs wait their turn in order.
public final class BlockingPool: Sendable {
    /// The pool every Reel module uses.
    public static let shared = BlockingPool(name: "reel.blocking", maxThreads: 64)

    public let name: String
    public let maxThreads: Int
    private let idleTimeout: TimeInterval
    /// Fires when a job is queued, started or taken out of the queue (for `statistics` watchers).
    public let changes = ChangeSignal()
    private let condition = NSCondition()
    // nonisolated(unsafe): read and written only while holding `condition`.
    nonisolated(unsafe) private var state = State()

    private struct State {
        var queue = Deque<Job>()
        var threads = 0
        var idle = 0
        var nextID = 0
        /// The cancellations of jobs being run, by id.
        var running: [Int: Cancellation] = [:]
    }

    /// One queued job: its id (to find it again on cancel) and the work, which resumes the awaiting task.
    private struct Job {
        let id: Int
        let cancellation: Cancellation
        let work: @Sendable () -> Void
        let abandon: @Sendable () -> Void
    }

    /// What the pool holds now, for tests and reports.
    public struct Statistics: Sendable, Equatable {
        public var threads: Int
        public var idle: Int
        public var queued: Int
    }

    public init(name: String, maxThreads: Int, idleTimeout: TimeInterval = 5) {
        self.name = name
        self.maxThreads = max(1, maxThreads)
        self.idleTimeout = idleTimeout
    }

    public var statistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        return Statistics(threads: state.threads, idle: state.idle, queued: state.queue.count)
    }

    /// Runs `body` on a pool thread and returns its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run { _ in try body() }
    }

    /// Runs `body` on a pool thread with a `Cancellation` that fires when the awaiting task is
    /// cancelled while `body` runs; throws `.cancelled` without running it when the task is
    /// cancelled before it starts.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Cancellation) throws -> T) async throws -> T {
        let cancellation = Cancellation()
        let id = Locked<Int?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let once = Locked(false)
                let resume: @Sendable (Result<T, any Error>) -> Void = { result in
                    let first = once.withLock { done -> Bool in
                        defer { done = true }
                        return !done
                    }
                    if first { continuation.resume(with: result) }
                }
                let job = enqueue(
                    cancellation: cancellation,
                    work: { resume(Result { try body(cancellation) }) },
                    abandon: { resume(.failure(ReelError(.cancelled, "blocking work cancelled before it started"))) })
                id.withLock { $0 = job }
                if Task.isCancelled { cancel(job) }
            }
        } onCancel: {
            if let job = id.withLock({ $0 }) { cancel(job) }
        }
    }

    /// Runs `body` on a pool thread to its end, whether or not the awaiting task is cancelled: for
    /// work that must happen (closing a cache, shutting an engine down, waiting for a child process).
    public func runToEnd<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            _ = enqueue(cancellation: Cancellation(), work: { continuation.resume(returning: body()) }, abandon: {})
        }
    }

    /// Starts `body` on a pool thread and returns at once: for teardown from synchronous code
    /// (a `defer`) that must not block its caller.
    public func start(_ body: @escaping @Sendable () -> Void) {
        _ = enqueue(cancellation: Cancellation(), work: body, abandon: {})
    }

    /// Queues a job and makes sure a thread will take it; returns its id.
    private func enqueue(cancellation: Cancellation, work: @escaping @Sendable () -> Void,
                         abandon: @escaping @Sendable () -> Void) -> Int {
        condition.lock()
        state.nextID += 1
        let id = state.nextID
        state.queue.append(Job(id: id, cancellation: cancellation, work: work, abandon: abandon))
        let spawn = state.idle < state.queue.count && state.threads < maxThreads
        if spawn { state.threads += 1 }
        condition.signal()
        condition.unlock()
        if spawn { DedicatedThread.start(name: name) { [self] in worker() } }
        changes.changed()
        return id
    }

    /// A queued job is taken out and abandoned; a running one has its cancellation fired.
    private func cancel(_ id: Int) {
        condition.lock()
        let index = state.queue.firstIndex { $0.id == id }
        let removed = index.map { state.queue.remove(at: $0) }
        condition.unlock()
        if let removed {
            changes.changed()
            removed.abandon()
        } else {
            cancelRunning(id)
        }
    }

    private func cancelRunning(_ id: Int) {
        condition.lock()
        let cancellation = state.running[id]
        condition.unlock()
        cancellation?.cancel()
    }

    private func worker() {
        condition.lock()
        while true {
            if let job = state.queue.popFirst() {
                state.running[job.id] = job.cancellation
                condition.unlock()
                changes.changed()
                job.work()
                condition.lock()
                state.running[job.id] = nil
                continue
            }
            state.idle += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
            state.idle -= 1
            if !woken && state.queue.isEmpty {
                state.threads -= 1
                condition.unlock()
                return
            }
        }
    }
}
