import Foundation

/// Runs blocking work (a child process waited for, a large file read, a long pixel loop) on a
/// thread of its own and awaits its result, so the awaiting test leaves the cooperative pool to
/// the other tests: on two cores, one test blocking a pool thread for seconds stalls every test
/// that awaits anything meanwhile.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "reel-test-blocking"
        thread.start()
    }
}
