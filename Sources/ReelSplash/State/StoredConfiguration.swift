import ReelCore
import Foundation

/// The last splash configuration fetched: its URL, when, and its bytes as served (parsed again
/// when the state is opened).
public struct StoredConfiguration: Sendable, Hashable {
    public var url: String
    public var fetchedAt: Date
    public var body: [UInt8]

    public init(url: String, fetchedAt: Date, body: [UInt8]) {
        self.url = url
        self.fetchedAt = fetchedAt
        self.body = body
    }
}
