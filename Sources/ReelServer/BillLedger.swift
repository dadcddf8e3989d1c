import ReelCore

/// The running CDN bill: counters updated from the event loop, read by `bill()` from anywhere.
/// Thread-safe through one `Locked`.
final class BillLedger: Sendable {
    private struct State {
        var bill = CDNBill()
        var openConnections = 0
    }

    private let state = Locked(State())
    /// Fires after every change, for `CDNServer.waitForBill`.
    let changes = ChangeSignal()

    /// Applies `body` to the state, then wakes whoever waits for the bill.
    private func update(_ body: (inout State) -> Void) {
        state.withLock(body)
        changes.changed()
    }

    func connectionOpened() {
        update { state in
            state.openConnections += 1
            state.bill.connections += 1
            state.bill.peakConcurrentConnections = max(state.bill.peakConcurrentConnections, state.openConnections)
        }
    }

    func connectionClosed() {
        update { $0.openConnections -= 1 }
    }

    /// A request was read: counts it and puts it in flight for its path.
    func requestStarted(path: String) {
        update { state in
            state.bill.requests += 1
            state.bill.paths[path, default: CDNBill.PathBill()].requests += 1
            Self.updatePath(&state.bill, path) { path in
                path.inFlightRequests += 1
                path.peakConcurrentRequests = max(path.peakConcurrentRequests, path.inFlightRequests)
            }
        }
    }

    /// A request is over (answered, reset, or its connection closed).
    func requestFinished(path: String) {
        update { state in
            Self.updatePath(&state.bill, path) { $0.inFlightRequests -= 1 }
        }
    }

    func responded(path: String, status: Int) {
        let key = String(status)
        update { state in
            state.bill.statusCounts[key, default: 0] += 1
            Self.updatePath(&state.bill, path) { $0.statusCounts[key, default: 0] += 1 }
        }
    }

    /// A request was read with what its client said about it (CMCD): counted by purpose and
    /// object type.
    func labelled(purpose: String, objectType: String) {
        update { state in
            state.bill.purposes[purpose, default: CDNBill.Share()].requests += 1
            state.bill.objectTypes[objectType, default: CDNBill.Share()].requests += 1
        }
    }

    /// Body bytes handed to the socket (negative to take back bytes whose write failed), billed
    /// to the path and to what the client said they were for.
    func bodyBytesSent(path: String, count: Int, purpose: String, objectType: String) {
        update { state in
            state.bill.bodyBytes += count
            Self.updatePath(&state.bill, path) { $0.bodyBytes += count }
            state.bill.purposes[purpose, default: CDNBill.Share()].bodyBytes += count
            state.bill.objectTypes[objectType, default: CDNBill.Share()].bodyBytes += count
        }
    }

    func faultInjected(path: String, kind: FaultKind) {
        update { state in
            state.bill.faults[kind] += 1
            Self.updatePath(&state.bill, path) { $0.faults[kind] += 1 }
        }
    }

    func snapshot() -> CDNBill {
        state.withLock { state in
            var bill = state.bill
            bill.openConnections = state.openConnections
            return bill
        }
    }

    /// Starts a new bill; what is open or in flight now stays counted as open or in flight.
    func reset() {
        update { state in
            var fresh = CDNBill()
            fresh.peakConcurrentConnections = state.openConnections
            for (path, old) in state.bill.paths where old.inFlightRequests > 0 {
                fresh.paths[path] = CDNBill.PathBill(inFlightRequests: old.inFlightRequests,
                                                     peakConcurrentRequests: old.inFlightRequests)
            }
            state.bill = fresh
        }
    }

    private static func updatePath(_ bill: inout CDNBill, _ path: String, _ update: (inout CDNBill.PathBill) -> Void) {
        update(&bill.paths[path, default: CDNBill.PathBill()])
    }
}
