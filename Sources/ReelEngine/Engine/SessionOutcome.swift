import ReelMedia

/// What a feed session leaves: its events in time order, its summary (without the CDN's bill,
/// which whoever ran the CDN adds), every player's report and warnings for people.
public struct SessionOutcome: Sendable {
    public var events: [SessionEvent]
    public var summary: SessionSummary
    public var players: [PlayerReport]
    public var warnings: [String]
    /// Requests and bytes the session read from the network (cache misses), the CDN's view
    /// when no bill is at hand.
    public var networkRequests: Int
    public var networkBytes: Int64
}
