/// Closures run in order on one dedicated thread: work a caller hands off without waiting (the
/// cache's seals and index writes), and a way to wait, from a thread that may block, until
/// everything handed off so far has run. The thread ends once `shutdown()` is called and the
/// queued work has run.
public final class SerialWorkQueue: Sendable {
    private let thread: JobThread<@Sendable () -> Void>

    public init(name: String) {
        thread = JobThread(name: name)
        thread.start { job in job() }
    }

    deinit { shutdown() }

    /// Runs `job` after everything handed off before it.
    public func async(_ job: @escaping @Sendable () -> Void) { thread.submit(job) }

    /// Blocks until every job handed off before the call has run. Never call it from a job.
    public func waitForAll() { thread.waitForAll() }

    /// Lets the thread end once the queued work has run.
    public func shutdown() { thread.shutdown() }
}
