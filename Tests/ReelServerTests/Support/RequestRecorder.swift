import ReelCore
import ReelServer

/// Collects the server's request log entries and lets a test wait for them without sleeping.
final class RequestRecorder: Sendable {
    private struct State {
        var entries: [RequestLogEntry] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<[RequestLogEntry], Never>)] = []
    }

    private let state = Locked(State())

    /// The hook to put in the server configuration.
    var hook: @Sendable (RequestLogEntry) -> Void {
        { [self] entry in record(entry) }
    }

    var entries: [RequestLogEntry] { state.withLock { $0.entries } }

    private func record(_ entry: RequestLogEntry) {
        let ready = state.withLock { state -> [(CheckedContinuation<[RequestLogEntry], Never>, [RequestLogEntry])] in
            state.entries.append(entry)
            let entries = state.entries
            let (done, waiting) = (state.waiters.filter { $0.count <= entries.count }, state.waiters.filter { $0.count > entries.count })
            state.waiters = waiting
            return done.map { ($0.continuation, entries) }
        }
        for (continuation, entries) in ready { continuation.resume(returning: entries) }
    }

    /// Returns once at least `count` entries were logged.
    func waitForEntries(_ count: Int) async -> [RequestLogEntry] {
        await withCheckedContinuation { continuation in
            let entries = state.withLock { state -> [RequestLogEntry]? in
                if state.entries.count >= count { return state.entries }
                state.waiters.append((count, continuation))
                return nil
            }
            if let entries { continuation.resume(returning: entries) }
        }
    }
}
