import ReelCore
import ReelMedia

/// What reaches the feed session's loop, one at a time and in order: the trace's samples when
/// their time comes, wake-ups for pages and held transitions, the players' reports, the reads of
/// every data source, the prefetcher's events.
enum SessionInput: Sendable {
    /// The launch window is over: the feed shows.
    case feedShown
    /// The trace's sample at this index is due (its time is after the launch window).
    case sample(Int)
    /// A page may have arrived or held transitions may be due.
    case wake
    /// Time to sample the process's memory.
    case monitor
    /// The trace is over (its last sample and the longest hold after it).
    case end
    /// A player (by its instance number) reported something.
    case player(Int, PlayerEvent)
    /// A player finished stopping.
    case stopped(Int, PlayerReport)
    /// A data source was closed after reading a resource.
    case fetch(SessionFetch)
    case prefetch(SessionPrefetch.Event)
    /// Something failed outside a player (a thumbnail); `card` when it concerns one.
    case failure(card: String?, message: String)
}
