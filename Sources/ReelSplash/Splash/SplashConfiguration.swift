import ReelCore
import Foundation

/// The splashes a configuration lists (the valid ones), where it came from and when it was
/// fetched. Entries are kept by start, so downloads go soonest first.
public struct SplashConfiguration: Sendable, Hashable {
    public var url: URL
    public var fetchedAt: Date
    public let entries: [SplashEntry]
    /// The latest window end of each asset URL: an asset whose splashes have all ended is not
    /// needed any more.
    public let assetEnds: [String: Date]

    public init(url: URL, fetchedAt: Date, entries: [SplashEntry]) {
        self.url = url
        self.fetchedAt = fetchedAt
        self.entries = entries.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        var ends: [String: Date] = [:]
        for entry in entries { ends[entry.assetURL] = max(ends[entry.assetURL] ?? entry.end, entry.end) }
        self.assetEnds = ends
    }

    /// The ids of the splashes that use `assetURL`, for messages.
    public func splashIDs(using assetURL: String) -> [String] {
        entries.filter { $0.assetURL == assetURL }.map(\.id)
    }
}
