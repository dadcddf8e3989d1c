/// Wakes whoever waits for a condition on state that a producer changes: the producer calls
/// `changed()` after each change; a waiter suspends on a continuation (no thread, no polling)
/// until the condition holds after a change, or a time limit passes. For waiting on a real signal
/// (a server's bill, a transfer's progress) instead of on time.
public final class ChangeSignal: Sendable {
    private struct Waiter {
        let condition: @Sendable () -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        /// Waiters made but not registered yet, and those whose limit passed in between.
        var pending: Set<Int> = []
        var expired: Set<Int> = []
    }

    private let state = Locked(State())

    public init() {}

    /// Tells every waiter to look at its condition again. Cheap when nobody waits.
    public func changed() {
        let waiters = state.withLock { $0.waiters }
        guard !waiters.isEmpty else { return }
        // Conditions run outside the lock: they may take the producer's own locks.
        for (id, waiter) in waiters where waiter.condition() {
            resume(id, with: true)
        }
    }

    /// Waits until `condition` holds (checked now and after every `changed()`); false when
    /// `limit` passes first.
    public func wait(limit: Duration = .seconds(60), until condition: @escaping @Sendable () -> Bool) async -> Bool {
        if condition() { return true }
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.pending.insert(state.nextID)
            return state.nextID
        }
        let timer = Task {
            do { try await Task.sleep(for: limit) } catch { return }
            resume(id, with: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let expired = state.withLock { state -> Bool in
                state.pending.remove(id)
                if state.expired.remove(id) != nil { return true }
                state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                return false
            }
            if expired { return continuation.resume(returning: condition()) }
            // A change between the first check and the registration was not seen by `changed()`.
            if condition() { resume(id, with: true) }
        }
    }

    /// Resumes waiter `id` once, if it still waits (a limit that passes before the waiter is
    /// registered is remembered).
    private func resume(_ id: Int, with value: Bool) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                if !value, state.pending.contains(id) { state.expired.insert(id) }
                return nil
            }
            return waiter
        }
        waiter?.continuation.resume(returning: value)
    }
}

/// A value behind a lock whose every change wakes the waiters of its `signal`: a counter or a
/// result a test or a run waits for.
public final class Watched<Value: Sendable>: Sendable {
    private let value: Locked<Value>
    public let signal = ChangeSignal()

    public init(_ initial: Value) {
        value = Locked(initial)
    }

    /// The value now.
    public var current: Value { value.withLock { $0 } }

    /// Changes the value and wakes the waiters.
    @discardableResult
    public func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        defer { signal.changed() }
        return try value.withLock(body)
    }

    /// Waits until `condition` holds for the value; false when `limit` passes first.
    public func wait(limit: Duration = .seconds(60), until condition: @escaping @Sendable (Value) -> Bool) async -> Bool {
        await signal.wait(limit: limit) { [value] in value.withLock { condition($0) } }
    }
}
