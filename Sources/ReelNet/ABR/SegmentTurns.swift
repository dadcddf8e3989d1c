import ReelCore
import ReelManifest

/// Who says when a play reads its next segment and at which variant, when a session's link is
/// under one download policy (`scheduler.policy=scheduler`; the engine's `LinkDesk`). One per
/// play: its `ABRController` joins with the stream's ladder, asks before each segment opens (on
/// the demuxer's thread, blocking until its turn) and says when each arrived. Without one (the
/// default), the play's own rules decide: the read-ahead and the adaptive rule.
public protocol SegmentTurns: Sendable {
    /// Whether the policy grants each segment as its reader's own rules ask (today's): a play
    /// then asks its adaptive rule first; otherwise the policy chooses the variant itself.
    var grantsAsked: Bool { get }
    /// The play joins: `ladder` holds the bits per second of each variant it may read (the
    /// controller's variant indices), `durations` each segment's seconds, `start` the variant it
    /// starts on; `probe` says where its player stands; `cached` the bytes of a segment at a
    /// variant when it is whole in the cache (nil otherwise); `received` the bytes that arrived
    /// so far of one on its way (nil without a cache, which alone can tell: the policy is then
    /// not told what is on the link); `fill` fetches one into the cache for it (nil without a
    /// cache), and returns its body bytes and seconds on the link (none when the cache served it
    /// whole). Blocking calls run on threads of their own.
    func join(ladder: [Int], durations: [Double], start: Int, probe: @escaping @Sendable () -> ABRPlayhead?,
              cached: @escaping @Sendable (_ variant: Int, _ segment: Int) -> Int?,
              received: (@Sendable (_ variant: Int, _ segment: Int) -> Int?)?,
              fill: (@Sendable (_ variant: Int, _ segment: Int, Cancellation) throws -> (bytes: Int, seconds: Double))?)
    /// Blocks until the play may open segment `index` (`previous`: the variant of the segment
    /// before; `proposed`: the one the play's own adaptive rule chose); the variant to read it
    /// at. Returns at once with `proposed` when `cancellation` fires.
    func turn(segment index: Int, previous: Int, proposed: Int, cancellation: Cancellation) -> Int
    /// The play's segment `index` came whole: its body bytes and seconds on the link (latency
    /// included); 0 seconds for one read from the cache.
    func arrived(segment index: Int, bytes: Int, seconds: Double)
    /// The play is over: its turns and fills end.
    func leave()
}
