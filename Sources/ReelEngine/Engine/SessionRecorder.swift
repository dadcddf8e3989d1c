import ReelCore
import ReelFeed
import ReelMedia
import ReelNet

/// What a feed session keeps for its events and summary: every event in time order, the reads,
/// the players (whether each played, its report once stopped), warnings, memory and threads.
/// The engine records into it; the summary folds it.
package struct SessionRecorder: Sendable {
    package private(set) var events: [SessionEvent] = []
    package private(set) var warnings: [String] = []
    private var lastEventTime = 0.0
    /// Players by number: their card, whether they were told to play, the bytes they read for
    /// playback, their report once stopped.
    private var players: [PlayerID: (card: String, played: Bool, bytes: Int64, report: PlayerReport?)] = [:]
    /// The reads so far: bytes read, of them from the cache, and what came from the network.
    private var readBytes: Int64 = 0
    private var cachedBytes: Int64 = 0
    private(set) var networkRequests = 0
    private(set) var networkBytes: Int64 = 0
    /// Bytes the players that were told to play read for playback.
    private(set) var bytesPlayed: Int64 = 0
    private var peakRSSMB = 0.0
    private var peakThreads = 0
    package var playerThreadsLeft = 0

    package init() {}

    /// Records an event at `time` (never before the last one); returns it.
    @discardableResult
    package mutating func record(_ kind: SessionEvent.Kind, at time: Double) -> SessionEvent {
        lastEventTime = max(lastEventTime, time)
        let event = SessionEvent(time: lastEventTime, kind: kind)
        events.append(event)
        return event
    }

    package mutating func warn(_ warning: String) { warnings.append(warning) }

    /// Counts a read: its bytes, what the cache served, what the network did, and a player's
    /// playback bytes (played bytes once it is told to play).
    package mutating func fetched(_ fetch: SessionFetch) {
        let metrics = fetch.metrics
        readBytes += metrics.bytes
        cachedBytes += min(metrics.cacheHitBytes, metrics.bytes)
        if metrics.bytes > metrics.cacheHitBytes || !metrics.cacheHit {
            networkRequests += 1
            networkBytes += metrics.bytes - metrics.cacheHitBytes
        }
        if fetch.origin == .playback, let player = fetch.player, let record = players[player] {
            players[player]?.bytes += metrics.bytes
            if record.played { bytesPlayed += metrics.bytes }
        }
    }

    package mutating func mounted(_ player: PlayerID, card: String) { players[player] = (card, false, 0, nil) }

    /// The player is told to play: what it read counts as played from now on, and so far.
    package mutating func played(_ player: PlayerID) {
        guard let record = players[player], !record.played else { return }
        players[player]?.played = true
        bytesPlayed += record.bytes
    }

    package mutating func stopped(_ player: PlayerID, report: PlayerReport) { players[player]?.report = report }

    package func card(of player: PlayerID) -> String? { players[player]?.card }

    /// Samples the process's memory and threads.
    package mutating func sample() {
        if let megabytes = ResidentMemory.megabytes() { peakRSSMB = max(peakRSSMB, megabytes) }
        if let threads = ProcessThreads.count() { peakThreads = max(peakThreads, threads) }
    }

    /// The events and the summary: counted from the events (plays, TTFF, stalls, errors), the
    /// players' reports (frames), the reads as counted (bytes played, cache hits), the prefetch ledger (with
    /// its waste by why, from `unread`), the decoder pool and the samples. The CDN's bill is for
    /// whoever ran the CDN to add.
    package func outcome(ledger: FeedPrefetch.Ledger, decoders: SessionSummary.Decoders, bandwidth: BandwidthEstimate?,
                         unread: (String) -> FeedCoordinator.UnreadReason) -> SessionOutcome {
        var summary = SessionSummary(events: events)
        let numbers = players.keys.sorted()
        let reports = numbers.compactMap { players[$0]?.report }
        summary.frames = reports.reduce(0) { $0 + $1.frames }
        summary.bytesPlayed = bytesPlayed
        summary.cacheHitRatio = readBytes == 0 ? 0 : Double(cachedBytes) / Double(readBytes)
        summary.prefetch.fetchedBytes = ledger.fetchedBytes
        summary.prefetch.usedBytes = ledger.usedBytes
        summary.prefetch.wastedBytes = ledger.wastedBytes
        summary.prefetch.waste = Self.waste(ledger, unread: unread)
        summary.decoders = decoders
        summary.peakRSSMB = peakRSSMB
        var threads = SessionSummary.Threads()
        threads.peak = peakThreads
        threads.playersLeft = playerThreadsLeft
        summary.threads = threads
        summary.bandwidth = bandwidth.map { SessionSummary.Bandwidth($0) }
        summary.abr = SessionSummary.ABR(played: numbers.compactMap { players[$0]?.played == true ? players[$0]?.report : nil })
        summary.cdn.requests = networkRequests
        summary.cdn.bytes = networkBytes
        return SessionOutcome(events: events, summary: summary, players: reports, warnings: warnings,
                              networkRequests: networkRequests, networkBytes: networkBytes)
    }

    /// The prefetch waste by why nobody read it: evicted first; then by the card that fetched it.
    /// Unread bytes no card claims (a request without a card) end with the session.
    package static func waste(_ ledger: FeedPrefetch.Ledger, unread: (String) -> FeedCoordinator.UnreadReason) -> SessionSummary.Waste {
        var waste = SessionSummary.Waste()
        waste.evicted = ledger.evictedUnreadBytes
        for (card, bytes) in ledger.unreadBytesByCard.sorted(by: { $0.key < $1.key }) {
            switch unread(card) {
            case .scrolledPast: waste.scrolledPast += bytes
            case .cancelled: waste.cancelled += bytes
            case .sessionEnded: waste.sessionEnded += bytes
            }
        }
        let claimed = ledger.unreadBytesByCard.values.reduce(0, +)
        waste.sessionEnded += max(0, ledger.wastedBytes - ledger.evictedUnreadBytes - claimed)
        return waste
    }
}
