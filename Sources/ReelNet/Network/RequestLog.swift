import ReelCore

/// The requests one job made (a play, a prefetch), in order, with what each cost. Shared by the
/// threads that open data sources for the job.
public final class RequestLog: Sendable {
    private let entries = Locked<[TransferMetrics]>([])

    public init() {}

    public func record(_ metrics: TransferMetrics) {
        entries.withLock { $0.append(metrics) }
    }

    public var all: [TransferMetrics] { entries.withLock { $0 } }

    /// Totals over every recorded request.
    public var summary: Summary {
        entries.withLock { list in
            Summary(
                requests: list.count,
                bytes: list.reduce(0) { $0 + $1.bytes },
                cacheHitBytes: list.reduce(0) { $0 + $1.cacheHitBytes },
                cacheHits: list.filter(\.cacheHit).count,
                first: list.first)
        }
    }

    public struct Summary: Sendable, Hashable {
        public var requests: Int
        public var bytes: Int64
        public var cacheHitBytes: Int64
        public var cacheHits: Int
        public var first: TransferMetrics?
    }
}
