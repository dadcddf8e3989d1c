import ReelCore
import ReelMedia
import ReelNet

extension FeedSession {
    /// The events and the summary: counted from the events (plays, TTFF, stalls, errors), the
    /// players' reports (frames), the reads (bytes played, cache hits), the prefetch ledger, the
    /// decoder pool and the memory samples. The CDN's bill is for whoever ran the CDN to add.
    func outcome() async -> SessionOutcome {
        var summary = SessionSummary(events: events)
        let reports = players.keys.sorted().compactMap { players[$0]?.report }
        summary.frames = reports.reduce(0) { $0 + $1.frames }
        var read: Int64 = 0, fromCache: Int64 = 0, networkRequests = 0, networkBytes: Int64 = 0
        for fetch in fetches {
            let metrics = fetch.metrics
            read += metrics.bytes
            fromCache += min(metrics.cacheHitBytes, metrics.bytes)
            if metrics.bytes > metrics.cacheHitBytes || !metrics.cacheHit {
                networkRequests += 1
                networkBytes += metrics.bytes - metrics.cacheHitBytes
            }
            if fetch.origin == .playback, let instance = fetch.player, players[instance]?.played == true {
                summary.bytesPlayed += metrics.bytes
            }
        }
        summary.cacheHitRatio = read == 0 ? 0 : Double(fromCache) / Double(read)
        summary.prefetch.fetchedBytes = prefetchLedger.fetchedBytes
        summary.prefetch.usedBytes = prefetchLedger.usedBytes
        summary.prefetch.wastedBytes = prefetchLedger.wastedBytes
        summary.prefetch.waste = waste(prefetchLedger)
        let pool = await self.pool.statistics
        summary.decoders.created = pool.created
        summary.decoders.reused = pool.reused
        summary.peakRSSMB = peakRSSMB
        var threads = SessionSummary.Threads()
        threads.peak = peakThreads
        threads.playersLeft = playerThreadsLeft
        summary.threads = threads
        summary.bandwidth = setup.factory.bandwidthMeter.map { SessionSummary.Bandwidth($0.snapshot) }
        summary.abr = SessionSummary.ABR(played: players.keys.sorted().compactMap { players[$0]?.played == true ? players[$0]?.report : nil })
        summary.cdn.requests = networkRequests
        summary.cdn.bytes = networkBytes
        return SessionOutcome(events: events, summary: summary, players: reports, warnings: warnings,
                              networkRequests: networkRequests, networkBytes: networkBytes)
    }
}
