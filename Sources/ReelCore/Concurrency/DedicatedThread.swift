import Foundation

/// The one place Reel starts an operating-system thread: for loops that block in C or wait on
/// their own condition for their whole life (a serial executor, the transfer engine's curl loop,
/// the renderer's display clock, the workers of `BlockingPool`). Everything else that blocks runs
/// on one of these: an actor on a `DedicatedThreadExecutor`, or a job on `BlockingPool`.
///
/// It also knows the threads it started that are still running, by name, so a session can report
/// the ones it left behind and a test can wait for them to end instead of sleeping.
public enum DedicatedThread {
    /// Running threads: how many of each name.
    private static let live = Locked([String: Int]())
    private static let signal = ChangeSignal()

    /// Starts a thread named `name` that runs `body` and then ends. `body` is kept alive until it
    /// returns. The name is also given to the operating system's thread (its first 15 bytes), so
    /// `top -H`, gdb and `/proc/<pid>/task/*/comm` show it.
    public static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        live.withLock { $0[name, default: 0] += 1 }
        let thread = Thread {
            setOSName(name)
            body()
            live.withLock { live in
                live[name, default: 1] -= 1
                if live[name] == 0 { live[name] = nil }
            }
            signal.changed()
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Threads started here and still running whose name starts with `prefix` (all of them for "").
    public static func running(prefix: String = "") -> Int {
        live.withLock { $0.reduce(0) { $0 + ($1.key.hasPrefix(prefix) ? $1.value : 0) } }
    }

    /// Waits until at most `count` threads whose name starts with `prefix` run; false when `limit`
    /// passes first.
    public static func waitUntil(prefix: String, atMost count: Int = 0, limit: Duration = .seconds(60)) async -> Bool {
        await signal.wait(limit: limit) { running(prefix: prefix) <= count }
    }

    private static func setOSName(_ name: String) {
        // Linux keeps at most 15 bytes of a thread's name; `comm` takes it from the thread itself.
        var bytes = Array(name.utf8.prefix(15))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        try? Data(bytes).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
    }
}
