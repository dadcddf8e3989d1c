import NIOCore
import NIOHTTP1

/// One request and its response in progress on a connection. Confined to the connection's
/// event loop: only `CDNRequestHandler` touches it.
final class Exchange {
    /// Where the response stands.
    enum Phase {
        /// Waiting out the latency or the file lookup; no head sent yet.
        case preparing
        /// Head sent, body being written.
        case streaming
        /// An injected stall: nothing more will be sent.
        case stalled
        /// An injected reset is closing the connection.
        case resetting
    }

    let head: HTTPRequestHead
    let path: RequestPath
    let ticket: FaultPlanner.Ticket
    /// What the client said about the request (CMCD), read once from its head.
    let cmcd: CMCDData?
    /// The bill's labels for its bytes: what the client said they were for, and what they are.
    var purpose: String { (cmcd?.purpose ?? .unlabeled).rawValue }
    var objectType: String { cmcd?["ot"]?.text ?? "-" }
    var phase = Phase.preparing
    var status: Int?
    var fault: Fault?
    var file: ServedFile?
    /// First byte of the file to send.
    var bodyOffset = 0
    /// Body bytes the response announces (Content-Length).
    var bodyLength = 0
    /// Body bytes to send before the fault strikes (the whole body without a fault).
    var sendLimit = 0
    /// Body bytes whose write completed.
    var sent = 0
    /// A body write is issued and not yet completed.
    var writeInFlight = false
    /// Set when the exchange ended (nothing more will be sent); the log waits for a pending write.
    var outcome: RequestLogEntry.Outcome?
    /// The latency or pacing timer, cancelled when the connection closes.
    var timer: Scheduled<Void>?

    init(head: HTTPRequestHead, path: RequestPath, ticket: FaultPlanner.Ticket) {
        self.head = head
        self.path = path
        self.ticket = ticket
        cmcd = CMCDData(uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
    }

    /// The log entry for this exchange ending with `outcome`.
    func logEntry(connectionID: Int, outcome: RequestLogEntry.Outcome) -> RequestLogEntry {
        RequestLogEntry(connectionID: connectionID, method: head.method.rawValue, path: path.key,
                        range: head.headers.first(name: "range"), status: status, bodyBytes: sent,
                        fault: fault, outcome: outcome, cmcd: cmcd)
    }
}
