import Foundation

/// Runs blocking work (file I/O, blocking data-source reads, SQLite) on a thread of its own and
/// awaits its result, so async callers never block the cooperative pool.
public enum BlockingWork {
    public static func run<T: Sendable>(name: String = "reel.blocking", _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = name
            thread.start()
        }
    }
}
