/// A serial executor backed by one thread of its own, for actors whose methods make blocking
/// C calls (FFmpeg open/read/decode): their work never lands on the cooperative pool.
public final class DedicatedThreadExecutor: SerialExecutor, Sendable {
    public let name: String
    private let thread: JobThread<UnownedJob>

    public init(name: String) {
        self.name = name
        thread = JobThread(name: name, stackSize: 4 << 20)
        // The thread keeps the executor until it is shut down, as an actor's jobs need it.
        thread.start { [self] job in job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    public func enqueue(_ job: consuming ExecutorJob) { thread.submit(UnownedJob(job)) }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread exit once the queued jobs have run.
    public func shutdown() { thread.shutdown() }
}
