/// One request as the CDN saw it, handed to the request log hook when the request is over.
package struct RequestLogEntry: Sendable, Hashable, Codable {
    /// How the request ended.
    package enum Outcome: String, Sendable, Hashable, Codable {
        /// The whole response was sent.
        case complete
        /// An injected reset cut the body.
        case reset
        /// An injected stall held the body until the connection closed.
        case stalled
        /// The connection closed before the response was complete (client gone, offline, shutdown).
        case aborted
    }

    /// The connection the request came on, numbered from 1 in accept order.
    package var connectionID: Int
    package var method: String
    /// The bill's key: percent-decoded path without the query string.
    package var path: String
    /// The Range header as the client sent it.
    package var range: String?
    /// The response status, or nil when the connection closed before the head was sent.
    package var status: Int?
    /// Body bytes the client received (writes completed).
    package var bodyBytes: Int
    /// The fault injected into this response, if any.
    package var fault: Fault?
    package var outcome: Outcome
    /// The Common Media Client Data the request carried, read by the CDN; nil without.
    package var cmcd: CMCDData?

    package init(connectionID: Int, method: String, path: String, range: String?, status: Int?, bodyBytes: Int,
                fault: Fault?, outcome: Outcome, cmcd: CMCDData? = nil) {
        self.connectionID = connectionID
        self.method = method
        self.path = path
        self.range = range
        self.status = status
        self.bodyBytes = bodyBytes
        self.fault = fault
        self.outcome = outcome
        self.cmcd = cmcd
    }
}
