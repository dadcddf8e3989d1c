import Foundation
import ReelCore
import ReelManifest

/// One run of one request, blocking, on a `BlockingPool` thread: plan the video with playback's own
/// variant selection (`PrefetchPlan`, the manifests read through the cache), then read each item
/// through the cache-backed source tagged `prefetch`, skipping what is cached whole and following
/// a transfer of the same key already in flight (playback's or another prefetch's) to its end: no URL is
/// fetched twice. A cancel reaches
/// curl through `cancellation`; what arrived stays as a partial entry for the next run.
struct PrefetchJob: Sendable {
    /// What the run did.
    struct Result: Sendable {
        var end: PrefetchPolicy.JobEnd
        /// Bytes this run pulled from the network (manifests and items).
        var networkBytes: Int64 = 0
        var outcome: PrefetchOutcome?
        var error: ReelError?
    }

    let url: URL
    let amount: PrefetchAmount
    let factory: CacheDataSourceFactory
    let constraints: PlaybackConstraints
    let manifestLimits: ManifestLimits
    /// Plan the audio rendition too (players that decode audio read it).
    let includeAudio: Bool
    let cancellation: Cancellation
    /// The run shares a reachability that was offline before it began (`--offline`, or playback
    /// found the network gone): its `.offline` failures are final. Otherwise an `.offline`
    /// failure means this run found the host unreachable, worth another try.
    let sharesOfflineReachability: Bool
    /// Hears the cache key of each manifest and item this run fetches (for the ledger's waste
    /// by request).
    var onFetch: @Sendable (String) -> Void = { _ in }

    func run() -> Result {
        var bytes: Int64 = 0
        do {
            if cancellation.isCancelled { return Result(end: .stopped) }
            let plan = try PrefetchPlan.make(for: url, amount: amount, factory: factory, constraints: constraints,
                                             limits: manifestLimits, includeAudio: includeAudio, cancellation: cancellation)
            bytes += plan.manifests.reduce(0) { $0 + $1.bytes - $1.cacheHitBytes }
            for manifest in plan.manifests where manifest.bytes > manifest.cacheHitBytes {
                if let url = URL(string: manifest.url) { onFetch(DataSpec(url: url, kind: manifest.kind).cacheKey) }
            }
            var outcome = PrefetchOutcome(url: url, variant: plan.variant, manifests: plan.manifests.map(PrefetchOutcome.Item.init))
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            for spec in plan.items {
                if cancellation.isCancelled { return Result(end: .stopped, networkBytes: bytes, outcome: outcome) }
                let range = spec.length.map { "\(spec.offset)-\(spec.offset + $0 - 1)" }
                switch factory.cache.status(of: spec.cacheKey) {
                case .complete(let length):
                    outcome.items.append(.init(url: spec.url.absoluteString, kind: spec.kind, bytes: length,
                                               alreadyCached: true, range: range))
                    continue
                case .inFlight, .absent, .partial:
                    // A transfer in flight is followed (one request for both) to its end: a
                    // player's may stop short (a prepared player reads only a little ahead, and
                    // an unmounted one leaves), and then this reader pulls the rest. One being
                    // wound up (a stopped run of this very request) is waited for and then
                    // resumed: the cache source does both.
                    break
                }
                onFetch(spec.cacheKey)
                let source = factory.makeDataSource(cancellation: cancellation)
                do {
                    _ = try source.open(spec)
                    while try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }) > 0 {}
                } catch {
                    source.close()
                    bytes += source.metrics.bytes - source.metrics.cacheHitBytes
                    throw error
                }
                source.close()
                let metrics = source.metrics
                bytes += metrics.bytes - metrics.cacheHitBytes
                outcome.items.append(.init(url: spec.url.absoluteString, kind: spec.kind, bytes: metrics.bytes,
                                           cacheBytes: metrics.cacheHitBytes,
                                           alreadyCached: metrics.cacheHit, range: range))
            }
            return Result(end: .completed, networkBytes: bytes, outcome: outcome)
        } catch {
            if cancellation.isCancelled { return Result(end: .stopped, networkBytes: bytes) }
            let failure = error as? ReelError ?? ReelError(.internalFailure, "prefetch of '\(url.absoluteString)' failed", cause: nil)
            let retriable = Self.retriable(failure) || (failure.code == .offline && !sharesOfflineReachability)
            return Result(end: .failed(retriable: retriable), networkBytes: bytes, error: failure)
        }
    }

    /// Failures of the network worth another try later (the transfer engine has already
    /// retried the request itself); a 404, a bad manifest or an offline job are not.
    static func retriable(_ error: ReelError) -> Bool {
        switch error.code {
        case .connectionFailed, .httpStatus, .timeout, .networkFailed: true
        default: false
        }
    }
}
