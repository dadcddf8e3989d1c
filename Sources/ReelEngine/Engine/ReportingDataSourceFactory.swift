import Foundation
import ReelCore
import ReelFeed
import ReelManifest
import ReelNet
import Synchronization

/// Wraps the session's data-source factory so every source, when closed, reports what it read
/// (URL, bytes, cache hit) for one reader: a card's player, its thumbnail, or the prefetcher.
/// The report runs on the thread that closed the source; it only hands a value over.
struct ReportingDataSourceFactory: DataSourceFactory {
    let base: any DataSourceFactory
    let origin: SessionEvent.Origin
    let card: String?
    let player: PlayerID?
    let report: @Sendable (SessionFetch) -> Void
    /// The play's seat at the session's link desk, when a download policy gives the turns.
    var turns: (any SegmentTurns)? = nil

    func makeDataSource(cancellation: Cancellation) -> any DataSource {
        ReportingDataSource(base: base.makeDataSource(cancellation: cancellation)) { [origin, card, player, report] metrics in
            report(SessionFetch(origin: origin, card: card, player: player, metrics: metrics))
        }
    }

    var cacheContext: CacheContext? { base.cacheContext }
    var bandwidthMeter: BandwidthMeter? { base.bandwidthMeter }
    var segmentTurns: (any SegmentTurns)? { turns }
}

/// A data source that reports its metrics once per successful open, when that open is closed
/// (or replaced by the next open).
final class ReportingDataSource: DataSource {
    private let base: any DataSource
    private let report: (TransferMetrics) -> Void
    private var opened = false

    init(base: any DataSource, report: @escaping (TransferMetrics) -> Void) {
        self.base = base
        self.report = report
    }

    deinit { close() }

    func open(_ spec: DataSpec) throws -> Int64? {
        close()
        let length = try base.open(spec)
        opened = true
        return length
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try base.read(into: buffer)
    }

    func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try base.readReady(into: buffer)
    }

    func close() {
        base.close()
        guard opened else { return }
        opened = false
        let metrics = base.metrics
        if !metrics.url.isEmpty { report(metrics) }
    }

    var metrics: TransferMetrics { base.metrics }
}
