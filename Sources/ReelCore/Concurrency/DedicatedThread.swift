import Foundation

/// The one place Reel starts an operating-system thread: for loops that block in C or wait on
/// their own condition for their whole life (a serial executor, the transfer engine's curl loop,
/// the renderer's display clock, the workers of `BlockingPool`). Everything else that blocks runs
/// on one of these: an actor on a `DedicatedThreadExecutor`, or a job on `BlockingPool`.
public enum DedicatedThread {
    /// Starts a thread named `name` that runs `body` and then ends. `body` is kept alive until it
    /// returns.
    public static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
}
