import Foundation
import ReelCore
import ReelManifest

/// One run of one request, blocking, on a `BlockingPool` thread: plan the video with playback's own
/// variant selection (`PrefetchPlan`, the manifests read through the cache), then read each item
/// through the cache-backed source tagged `prefetch`, skipping what is cached whole and following
/// a transfer of the same key already in flight (playback's or another prefetch's) to its end: no URL is
/// fetched twice. A cancel reaches
/// curl through `cancellation`; what arrived stays as a partial entry for the next run. A run
/// whose resources the cache could not store (a full disk, a read-only folder) fails, listing them.
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
    /// What CMCD says of the run's requests (the prefetch marker, the content), when on.
    var cmcd: CMCDHints?
    /// The run shares a reachability that was offline before it began (`--offline`, or playback
    /// found the network gone): its `.offline` failures are final. Otherwise an `.offline`
    /// failure means this run found the host unreachable, worth another try.
    let sharesOfflineReachability: Bool
    /// Hears the cache key of each manifest and item this run fetches (for the ledger's waste
    /// by request).
    var onFetch: @Sendable (String) -> Void = { _ in }
    /// The job's seat at the session's download policy: each segment it reads waits for its
    /// turn (today's grants it at once); nil: it reads as it plans.
    var turns: (any SegmentTurns)?

    func run() -> Result {
        var bytes: Int64 = 0
        let cache = factory.cache
        let room = RoomEvictions(cache)
        defer { room.stop() }
        do {
            if cancellation.isCancelled { return Result(end: .stopped) }
            let plan = try PrefetchPlan.make(for: url, amount: amount, factory: factory, constraints: constraints,
                                             limits: manifestLimits, includeAudio: includeAudio, cancellation: cancellation,
                                             cmcd: cmcd)
            bytes += plan.manifests.reduce(0) { $0 + $1.bytes - $1.cacheHitBytes }
            var outcome = PrefetchOutcome(url: url, variant: plan.variant, manifests: plan.manifests.map(PrefetchOutcome.Item.init))
            // Under a policy that decides for itself (the link scheduler) the job reads the
            // manifests and init sections only: its seat stays after it, and the policy fills the
            // segments it wants (the desk lets the seat go when the card leaves the preload order
            // or mounts). Under today's each segment it reads asks for its turn.
            let decides = turns.map { !$0.grantsAsked } ?? false
            if let turns, !plan.segmentDurations.isEmpty { join(turns, plan: plan, fills: decides) }
            defer { if !decides { turns?.leave() } }
            // What this run fetched, by cache key: checked at the end to be stored.
            var fetched: [(key: String, item: PrefetchOutcome.Item)] = []
            for (manifest, item) in zip(plan.manifests, outcome.manifests) where manifest.bytes > manifest.cacheHitBytes {
                guard let url = URL(string: manifest.url) else { continue }
                let key = DataSpec(url: url, kind: manifest.kind).cacheKey
                onFetch(key)
                fetched.append((key, item))
            }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            for spec in plan.items {
                if cancellation.isCancelled { return Result(end: .stopped, networkBytes: bytes, outcome: outcome) }
                let range = spec.length.map { "\(spec.offset)-\(spec.offset + $0 - 1)" }
                switch cache.status(of: spec.cacheKey) {
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
                if cache.writeFailure != nil {
                    // The cache stores nothing now: fetching would only spend the bytes.
                    outcome.notStored.append(.init(url: spec.url.absoluteString, kind: spec.kind, bytes: 0,
                                                   alreadyCached: false, range: range))
                    continue
                }
                let segment = plan.segmentIndex[spec.cacheKey]
                if decides, segment != nil { continue }
                if let turns, let segment {
                    _ = turns.turn(segment: segment, previous: 0, proposed: 0, cancellation: cancellation)
                    if cancellation.isCancelled { return Result(end: .stopped, networkBytes: bytes, outcome: outcome) }
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
                if let turns, let segment {
                    turns.arrived(segment: segment, bytes: Int(metrics.bytes - metrics.cacheHitBytes), seconds: metrics.totalMs / 1000)
                }
                let item = PrefetchOutcome.Item(url: spec.url.absoluteString, kind: spec.kind, bytes: metrics.bytes,
                                                cacheBytes: metrics.cacheHitBytes, alreadyCached: metrics.cacheHit, range: range)
                outcome.items.append(item)
                if !metrics.cacheHit { fetched.append((spec.cacheKey, item)) }
            }
            // Stored means sealed and indexed: wait for this run's seals, then ask. An entry
            // evicted since to make room for newer ones was stored.
            try cache.waitUntilSettled(fetched.map(\.key), cancellation: cancellation)
            if cache.writeFailure != nil {
                let evicted = room.keys
                let lost = fetched.filter { !cache.holdsDurably($0.key) && !evicted.contains($0.key) }.map(\.item)
                outcome.notStored.insert(contentsOf: lost, at: 0)
            }
            if !outcome.notStored.isEmpty {
                let total = outcome.manifests.count + plan.items.count
                let error = ReelError(.cacheIO, """
                    prefetch of '\(url.absoluteString)': \(outcome.notStored.count) of \(total) resources could not be \
                    stored in the cache '\(cache.directory.path)': \(cache.writeFailure ?? "writes failed")
                    """)
                return Result(end: .failed(retriable: false), networkBytes: bytes, outcome: outcome, error: error)
            }
            return Result(end: .completed, networkBytes: bytes, outcome: outcome)
        } catch {
            if cancellation.isCancelled { return Result(end: .stopped, networkBytes: bytes) }
            let failure = error as? ReelError ?? ReelError(.internalFailure, "prefetch of '\(url.absoluteString)' failed", cause: nil)
            let retriable = Self.retriable(failure) || (failure.code == .offline && !sharesOfflineReachability)
            return Result(end: .failed(retriable: retriable), networkBytes: bytes, error: failure)
        }
    }

    /// Takes the job's seat at the session's download policy: its one variant, its segments, what
    /// is cached, and (when the policy fills) a fill that reads a segment into the cache.
    private func join(_ turns: any SegmentTurns, plan: PrefetchPlan, fills: Bool) {
        let specs = plan.segmentSpecs
        let cache = factory.cache
        let cached: @Sendable (Int, Int) -> Int? = { _, segment in
            specs.indices.contains(segment) ? cache.completeBytes(specs[segment]) : nil
        }
        let received: @Sendable (Int, Int) -> Int? = { _, segment in
            specs.indices.contains(segment) ? cache.bytesInFlight(of: specs[segment].cacheKey).map(Int.init) : nil
        }
        let (factory, onFetch, url) = (self.factory, self.onFetch, self.url)
        let fill: @Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double) = { _, segment, cancellation in
            guard specs.indices.contains(segment) else {
                throw ReelError(.internalFailure, "no segment \(segment) of '\(url.absoluteString)'")
            }
            onFetch(specs[segment].cacheKey)
            return try factory.fill(specs[segment], cancellation: cancellation)
        }
        turns.join(ladder: [plan.bitrate], durations: plan.segmentDurations, start: 0, probe: { nil }, cached: cached,
                   received: received, fill: fills ? fill : nil)
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

/// The keys a cache evicts to make room while a prefetch run goes on: those were stored, then
/// let go for newer entries, which is not a failure to store them.
final class RoomEvictions: Sendable {
    private let evicted = Locked<Set<String>>([])
    private let cache: Cache
    private let token: Int

    init(_ cache: Cache) {
        self.cache = cache
        let evicted = self.evicted
        token = cache.addObserver { event in
            if case .evicted(let key, _, _, _, .capacity) = event { evicted.withLock { _ = $0.insert(key) } }
        }
    }

    var keys: Set<String> { evicted.withLock { $0 } }

    func stop() { cache.removeObserver(token) }
}
