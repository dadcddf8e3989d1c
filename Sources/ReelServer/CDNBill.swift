import Foundation
import ReelCore

/// What the CDN served, as its bill would show it: requests, body bytes, connections, statuses
/// and injected faults, in total and per path. A snapshot: `CDNServer.bill()` makes a new one.
package struct CDNBill: Sendable, Hashable, Codable {
    /// Requests received (every request the server read, whatever its answer).
    package var requests: Int
    /// Response body bytes whose write completed: what the clients received (heads not counted).
    /// A write in progress is counted already (and taken back if it fails), so the bill never
    /// trails what a client holds.
    package var bodyBytes: Int
    /// Connections accepted (connections dropped by the offline profile are not counted).
    package var connections: Int
    /// Connections open when the snapshot was taken.
    package var openConnections: Int
    /// Most connections open at once.
    package var peakConcurrentConnections: Int
    /// Responses by status code ("200", "206", "404", ...); a request closed before its head is not counted.
    package var statusCounts: [String: Int]
    /// Faults injected, by kind.
    package var faults: FaultCounts
    /// The same per request path (percent-decoded, without the query string).
    package var paths: [String: PathBill]
    /// Requests and bytes by what the client said they were for (its CMCD): `startup`,
    /// `playback`, `prefetch`, or `unlabeled` without CMCD.
    package var purposes: [String: Share] = [:]
    /// The same by CMCD object type (`m` manifest, `av` muxed media, `i` init, `k` key, `o`
    /// other; `-` without CMCD).
    package var objectTypes: [String: Share] = [:]

    /// Requests and body bytes of one label.
    package struct Share: Sendable, Hashable, Codable {
        package var requests = 0
        package var bodyBytes = 0

        package init(requests: Int = 0, bodyBytes: Int = 0) {
            self.requests = requests
            self.bodyBytes = bodyBytes
        }
    }

    /// One path's share of the bill.
    package struct PathBill: Sendable, Hashable, Codable {
        package var requests: Int
        package var bodyBytes: Int
        /// Requests of this path in flight (received and not yet finished).
        package var inFlightRequests: Int
        /// Most requests of this path in flight at once.
        package var peakConcurrentRequests: Int
        package var statusCounts: [String: Int]
        package var faults: FaultCounts

        package init(requests: Int = 0, bodyBytes: Int = 0, inFlightRequests: Int = 0, peakConcurrentRequests: Int = 0,
                    statusCounts: [String: Int] = [:], faults: FaultCounts = FaultCounts()) {
            self.requests = requests
            self.bodyBytes = bodyBytes
            self.inFlightRequests = inFlightRequests
            self.peakConcurrentRequests = peakConcurrentRequests
            self.statusCounts = statusCounts
            self.faults = faults
        }

        /// Responses of this path with the given status.
        package func responses(status: Int) -> Int { statusCounts[String(status)] ?? 0 }
    }

    /// Injected faults by kind.
    package struct FaultCounts: Sendable, Hashable, Codable {
        package var status: Int
        package var reset: Int
        package var stall: Int

        package init(status: Int = 0, reset: Int = 0, stall: Int = 0) {
            self.status = status
            self.reset = reset
            self.stall = stall
        }

        package var total: Int { status + reset + stall }

        /// The count of one kind.
        package subscript(kind: FaultKind) -> Int {
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

    package init(requests: Int = 0, bodyBytes: Int = 0, connections: Int = 0, openConnections: Int = 0,
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
    package func responses(status: Int) -> Int { statusCounts[String(status)] ?? 0 }

    /// The bill as JSON with sorted keys (pretty-printed by default), for files and scripts.
    package func jsonData(prettyPrinted: Bool = true) throws -> Data {
        try ReportJSON.data(self, compact: !prettyPrinted)
    }

    /// The bill as a JSON string (see `jsonData(prettyPrinted:)`).
    package func jsonString(prettyPrinted: Bool = true) throws -> String {
        String(decoding: try jsonData(prettyPrinted: prettyPrinted), as: UTF8.self)
    }
}
