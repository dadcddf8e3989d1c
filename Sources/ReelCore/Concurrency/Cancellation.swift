
/// A thread-safe cancel signal shared by a playback or prefetch job and every data source it
/// opens. Blocking readers register a handler so a cancel wakes them at once.
public final class Cancellation: Sendable {
    private struct State {
        var cancelled = false
        var nextID = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }
    private let state = Locked(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels once; runs every registered handler outside the lock.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers.removeAll() }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Registers `handler` to run on cancel (at once when already cancelled); returns a token
    /// for `removeHandler`.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        let (id, runNow) = state.withLock { state -> (Int, Bool) in
            if state.cancelled { return (-1, true) }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return (state.nextID, false)
        }
        if runNow { handler() }
        return id
    }

    public func removeHandler(_ id: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
}
