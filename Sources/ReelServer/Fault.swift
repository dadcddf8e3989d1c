/// A fault the CDN injects into one response, either scheduled by a test for a path or drawn
/// from the seeded rates of `FaultInjection`.
package enum Fault: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Answer with this status (503, 500, 404, ...) and an empty body.
    case status(Int)
    /// Send the head and this many body bytes (at most the body), then reset the connection
    /// (SO_LINGER 0, so the client sees ECONNRESET).
    case reset(afterBytes: Int)
    /// Send the head and this many body bytes (at most the body), then send nothing more and
    /// keep the connection open until the client gives up or the server stops.
    case stall(afterBytes: Int)

    /// The kind of the fault, for counting.
    package var kind: FaultKind {
        switch self {
        case .status: .status
        case .reset: .reset
        case .stall: .stall
        }
    }

    package var description: String {
        switch self {
        case .status(let status): "status \(status)"
        case .reset(let bytes): "reset after \(bytes) bytes"
        case .stall(let bytes): "stall after \(bytes) bytes"
        }
    }
}

/// The kinds of injected fault.
package enum FaultKind: String, Sendable, Hashable, Codable, CaseIterable {
    case status, reset, stall
}
