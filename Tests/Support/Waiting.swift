import Foundation

/// Waits until `condition` holds, checking it every millisecond on a thread of its own (never on
/// the cooperative pool, which two busy tests could hold for seconds). For waiting on a real
/// signal (a server's bill, a file appearing), not on time. False if `limit` passes first.
public func waitOnThread(limit: Duration = .seconds(60), _ condition: @escaping @Sendable () -> Bool) async -> Bool {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            let deadline = ContinuousClock.now + limit
            while !condition() {
                guard ContinuousClock.now < deadline else { return continuation.resume(returning: false) }
                usleep(1000)
            }
            continuation.resume(returning: true)
        }
        thread.name = "reel-test-wait"
        thread.start()
    }
}
