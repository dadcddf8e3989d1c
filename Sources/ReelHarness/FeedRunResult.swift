import ReelEngine
import ReelMedia
import ReelServer

/// One feed run: its name, events, summary (the CDN figures from the simulator's bill when
/// there is one), the players' reports and warnings for people.
public struct FeedRunResult: Sendable {
    public var title: String
    public var events: [SessionEvent]
    public var summary: SessionSummary
    public var players: [PlayerReport]
    public var warnings: [String]
    /// What the simulator billed for this run (nil for a remote origin).
    public var bill: CDNBill?
}
