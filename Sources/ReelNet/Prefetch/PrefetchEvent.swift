import Foundation
import ReelCore

/// What happened to one prefetch request, from `Prefetcher.events`. `bytes` counts what the
/// event's run of the request read from the network, chunks it pulled for a transfer it shared
/// included (a suspended request that runs again reports each run's bytes separately; their sum
/// is the request's). The ledger's byte counts come from the cache instead.
public struct PrefetchEvent: Sendable {
    public enum Kind: Sendable {
        /// Accepted into the queue.
        case queued
        /// A job started (again, after a suspension or a failure, when `run` > 1).
        case started(run: Int)
        /// Everything the request asked for is in the cache. `outcome` lists each manifest and item.
        case done(bytes: Int64, outcome: PrefetchOutcome)
        /// Cancelled, queued or running; what a running job had fetched stays as (partial) entries.
        case cancelled(bytes: Int64)
        /// Stopped to make room (a higher category, a starving player) and queued again; its
        /// next run resumes the partial entries with Range requests.
        case suspended(bytes: Int64, reason: PrefetchPolicy.StopReason)
        /// Failed: queued again behind its category when `retrying`, else dropped. A refused
        /// request (bad URL, a category not in `prefetch.categories`, prefetch off) fails at once.
        case failed(ReelError, bytes: Int64, retrying: Bool)
    }

    public var id: PrefetchRequestID
    public var videoURL: URL
    /// The caller's tag from the request (the feed session's card id).
    public var tag: String?
    public var category: PrefetchCategory
    public var kind: Kind
    /// With `failed`: the manifests and items the run could not store in the cache (a full disk,
    /// a read-only folder), fetched or skipped; empty otherwise.
    public var notStored: [PrefetchOutcome.Item]

    public init(id: PrefetchRequestID, videoURL: URL, tag: String?, category: PrefetchCategory, kind: Kind,
                notStored: [PrefetchOutcome.Item] = []) {
        self.id = id
        self.videoURL = videoURL
        self.tag = tag
        self.category = category
        self.kind = kind
        self.notStored = notStored
    }

    /// The event's name as logs and JSON spell it: queued, started, done, cancelled, suspended, failed.
    public var name: String {
        switch kind {
        case .queued: "queued"
        case .started: "started"
        case .done: "done"
        case .cancelled: "cancelled"
        case .suspended: "suspended"
        case .failed: "failed"
        }
    }

    /// Network bytes of the run the event ends, 0 for queued and started.
    public var bytes: Int64 {
        switch kind {
        case .queued, .started: 0
        case .done(let bytes, _), .cancelled(let bytes), .suspended(let bytes, _), .failed(_, let bytes, _): bytes
        }
    }
}
