import Foundation
import ReelCore

/// What the CDN served, as its bill would show it: requests, body bytes, connections, statuses
/// and injected faults, in total and per path. A snapshot: `CDNServer.bill()` makes a new one.
public struct CDNBill: Sendable, Hashable, Codable {
    /// Requests received (every request the server read, whatever its answer).
    public var requests: Int
    /// Response body bytes whose write completed: what the clients received (heads not counted).
    /// A write in progress is counted already (and taken back if it fails), so the bill never
    /// trails what a client holds.
    public var bodyBytes: Int
    /// Connections accepted (connections dropped by the offline profile are not counted).
    public var connections: Int
    /// Connections open when the snapshot was taken.
    public var openConnections: Int
    /// Most connections open at once.
    public var peakConcurrentConnections: Int
    /// Responses by status code ("200", "206", "404", ...); a request closed before its head is not counted.
    public var statusCounts: [String: Int]
    /// Faults injected, by kind.
    public var faults: FaultCounts
    /// The same per request path (percent-decoded, without the query string).
    public var paths: [String: PathBill]

    /// One path's share of the bill.
    public struct PathBill: Sendable, Hashable, Codable {
        public var requests: Int
        public var bodyBytes: Int
        /// Requests of this path in flight (received and not yet finished).
        public var inFlightRequests: Int
        /// Most requests of this path in flight at once.
        public var peakConcurrentRequests: Int
        public var statusCounts: [String: Int]
        public var faults: FaultCounts

        public init(requests: Int = 0, bodyBytes: Int = 0, inFlightRequests: Int = 0, peakConcurrentRequests: Int = 0,
                    statusCounts: [String: Int] = [:], faults: FaultCounts = FaultCounts()) {
            self.requests = requests
            self.bodyBytes = bodyBytes
            self.inFlightRequests = inFlightRequests
            self.peakConcurrentRequests = peakConcurrentRequests
            self.statusCounts = statusCounts
            self.faults = faults
        }

        /// Responses of this path with the given status.
        public func responses(status: Int) -> Int { statusCounts[String(status)] ?? 0 }
    }

    /// Injected faults by kind.
    public struct FaultCounts: Sendable, Hashable, Codable {
        public var status: Int
        public var reset: Int
        public var stall: Int

        public init(status: Int = 0, reset: Int = 0, stall: Int = 0) {
            self.status = status
            self.reset = reset
            self.stall = stall
        }

        public var total: Int { status + reset + stall }

        /// The count of one kind.
        public subscript(kind: FaultKind) -> Int {
            get {
                switch kind {
                case .status: status
                case .reset: reset
                case .stall: stall
                }
            }
            set {
                switch kind {
                case .status: status = newValue
                case .reset: reset = newValue
                case .stall: stall = newValue
                }
            }
        }
    }

    public init(requests: Int = 0, bodyBytes: Int = 0, connections: Int = 0, openConnections: Int = 0,
                peakConcurrentConnections: Int = 0, statusCounts: [String: Int] = [:],
                faults: FaultCounts = FaultCounts(), paths: [String: PathBill] = [:]) {
        self.requests = requests
        self.bodyBytes = bodyBytes
        self.connections = connections
        self.openConnections = openConnections
        self.peakConcurrentConnections = peakConcurrentConnections
        self.statusCounts = statusCounts
        self.faults = faults
        self.paths = paths
    }

    /// Responses with the given status, over all paths.
    public func responses(status: Int) -> Int { statusCounts[String(status)] ?? 0 }

    /// The bill as JSON with sorted keys (pretty-printed by default), for files and scripts.
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        try ReportJSON.data(self, compact: !prettyPrinted)
    }

    /// The bill as a JSON string (see `jsonData(prettyPrinted:)`).
    public func jsonString(prettyPrinted: Bool = true) throws -> String {
        String(decoding: try jsonData(prettyPrinted: prettyPrinted), as: UTF8.self)
    }
}
