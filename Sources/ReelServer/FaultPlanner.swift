import ReelCore

/// Hands each request its fault ticket: the request's index for its path and any fault a test
/// scheduled for that path. Thread-safe through one `Locked`.
final class FaultPlanner: Sendable {
    /// What a request may suffer, fixed when the request is read.
    struct Ticket: Sendable {
        let path: String
        let requestIndex: Int
        let scheduled: Fault?
        let injection: FaultInjection

        /// The scheduled fault, else the seeded one for a body of `bodyLength` bytes.
        func fault(bodyLength: Int) -> Fault? {
            scheduled ?? injection.fault(forPath: path, requestIndex: requestIndex, bodyLength: bodyLength)
        }
    }

    private struct State {
        var injection: FaultInjection
        var requestCounts: [String: Int] = [:]
        var scheduled: [String: [Fault]] = [:]
    }

    private let state: Locked<State>

    init(injection: FaultInjection) {
        state = Locked(State(injection: injection))
    }

    var injection: FaultInjection {
        get { state.withLock { $0.injection } }
        set { state.withLock { $0.injection = newValue } }
    }

    /// Numbers the request within its path and takes the next scheduled fault for the path.
    func ticket(path: String) -> Ticket {
        state.withLock { state in
            let index = state.requestCounts[path, default: 0]
            state.requestCounts[path] = index + 1
            var scheduled: Fault?
            if var queue = state.scheduled[path], !queue.isEmpty {
                scheduled = queue.removeFirst()
                state.scheduled[path] = queue.isEmpty ? nil : queue
            }
            return Ticket(path: path, requestIndex: index, scheduled: scheduled, injection: state.injection)
        }
    }

    /// Queues `fault` for the next `count` requests of `path`, after any already queued.
    func schedule(_ fault: Fault, path: String, count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.scheduled[path, default: []].append(contentsOf: repeatElement(fault, count: count)) }
    }

    /// Drops every scheduled fault.
    func clearScheduled() {
        state.withLock { $0.scheduled.removeAll() }
    }

    /// Scheduled faults not yet used, per path.
    var pendingScheduled: [String: [Fault]] {
        state.withLock { $0.scheduled }
    }
}
