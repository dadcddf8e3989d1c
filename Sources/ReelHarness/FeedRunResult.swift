import ReelEngine
import ReelMedia
import ReelServer

/// One feed run: its name, events, summary (the CDN figures from the simulator's bill when
/// there is one), the players' reports and warnings for people.
package struct FeedRunResult: Sendable {
    package var title: String
    package var events: [SessionEvent]
    package var summary: SessionSummary
    package var players: [PlayerReport]
    package var warnings: [String]
    /// What the simulator billed for this run (nil for a remote origin).
    package var bill: CDNBill?
    /// The run was stopped before its trace's end (`FeedRunRequest.stop`): its events and
    /// summary are of what ran.
    package var interrupted = false
}
