import Foundation
import ReelCore
import ReelStore
import ReelManifest

/// Fetches the start of videos the user is about to reach into the disk cache, by priority,
/// at most K at once, and cancellable: the executor of `PrefetchPolicy` (read it for the rules).
///
/// The feed session makes one per session and drives it as cards enter and leave the prefetch
/// range:
///
///     let prefetcher = Prefetcher(factory: cacheFactory, config: config)
///     let id = await prefetcher.enqueue(PrefetchRequest(videoURL: url, category: .nearby, rank: 2, tag: cardID))
///     await prefetcher.reprioritize(id, category: .imminent, rank: 0)   // the card is next
///     await prefetcher.cancel(id)                                       // the card left the range
///     await prefetcher.setPlaybackStarving(true)                        // a player's buffer ran low
///     for await event in prefetcher.events { ... }                      // queued ... done/cancelled/failed
///     let ledger = await prefetcher.ledger()                            // at the end: bytes used and wasted
///     await prefetcher.shutdown()
///
/// Each request runs its `PrefetchPlan` (manifests, then the init section, key and first
/// segments of the variant playback will pick) on a dedicated thread through the cache-backed
/// source with origin `prefetch`; what is cached or in flight (by playback or prefetch) is not
/// fetched again; a stopped job's bytes stay as partial entries that its next run resumes with
/// Range requests. Limits come from `prefetch.*` (and `device.isLowEnd`). Events go to one
/// consumer; one that falls more than `eventBufferLimit` events behind loses the oldest (the
/// ledger counts everything regardless). See docs/prefetch.md.
public actor Prefetcher {
    /// Every request's story, in order: queued, started, then done, cancelled, suspended (and
    /// started again) or failed. Finishes after `shutdown`.
    public nonisolated let events: AsyncStream<PrefetchEvent>
    /// The cap, starving cap and retries in force.
    public nonisolated let limits: PrefetchPolicy.Limits

    private struct Tracked {
        var request: PrefetchRequest
        let amount: PrefetchAmount
        var runs = 0
    }

    private struct Job {
        let cancellation: Cancellation
        let task: Task<Void, Never>
    }

    private let continuation: AsyncStream<PrefetchEvent>.Continuation
    private let factory: CacheDataSourceFactory
    private let config: ReelConfig
    private let constraints: PlaybackConstraints
    private let manifestLimits: ManifestLimits
    private let includeAudio: Bool
    /// A seat at the session's download policy for a request's job (by the request's tag), when
    /// the policy grants the jobs' segments; nil: the jobs read as they plan.
    private let seats: (@Sendable (String?) -> (any SegmentTurns)?)?
    private let order: [PrefetchCategory]
    private let recorder = PrefetchLedgerRecorder()
    private let observer: Int
    private var policy: PrefetchPolicy
    private var tracked: [PrefetchRequestID: Tracked] = [:]
    private var byVideo: [URL: Set<PrefetchRequestID>] = [:]
    private var jobs: [PrefetchRequestID: Job] = [:]
    /// The result of the job whose end is being reported.
    private var ending: (id: PrefetchRequestID, result: PrefetchJob.Result)?
    private var counters = PrefetchLedger()
    private var buffers: [String: Int] = [:]
    private var nextID: UInt64 = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var closed = false

    /// A prefetcher reading through `factory`'s cache and upstream (its origin tag is replaced
    /// by `prefetch`), with the limits, categories and segment counts of `config.prefetch` and
    /// the variant selection of `config.device`. `includeAudio` says whether the players it
    /// fetches for read a separate audio rendition; video-only players (the feed's) would never
    /// read those bytes. `seats` gives each job its seat at a session's download policy (by its
    /// request's tag), which then grants each segment the job reads.
    public init(factory: CacheDataSourceFactory, config: ReelConfig, includeAudio: Bool = true, eventBufferLimit: Int = 65_536,
                seats: (@Sendable (String?) -> (any SegmentTurns)?)? = nil) {
        self.factory = factory.withOrigin(.prefetch)
        self.seats = seats
        self.config = config
        self.constraints = PlaybackConstraints(config)
        self.manifestLimits = ManifestLimits(config.manifest)
        self.includeAudio = includeAudio
        self.order = PrefetchCategory.order(config)
        let limits = PrefetchPolicy.Limits(config)
        self.limits = limits
        self.policy = PrefetchPolicy(limits: limits)
        (events, continuation) = AsyncStream.makeStream(of: PrefetchEvent.self,
                                                        bufferingPolicy: .bufferingNewest(max(1, eventBufferLimit)))
        let recorder = self.recorder
        observer = factory.cache.addObserver { recorder.observe($0) }
    }

    deinit {
        for job in jobs.values { job.cancellation.cancel() }
        factory.cache.removeObserver(observer)
        continuation.finish()
    }

    // MARK: Requests

    /// Queues `request` and returns its id. A request that cannot run (not http(s), a negative
    /// segment count, a category missing from `prefetch.categories`, `prefetch.enabled` false,
    /// after `shutdown`) gets a `failed` event at once instead of `queued`.
    @discardableResult
    public func enqueue(_ request: PrefetchRequest) -> PrefetchRequestID {
        nextID += 1
        let id = PrefetchRequestID(nextID)
        if let refusal = refusal(of: request) {
            counters.failed += 1
            emit(id, request, .failed(refusal, bytes: 0, retrying: false))
            return id
        }
        tracked[id] = Tracked(request: request, amount: request.amount(defaultSegments: request.category.segments(config)))
        byVideo[request.videoURL, default: []].insert(id)
        counters.queued += 1
        emit(id, request, .queued)
        perform(policy.enqueue(id, priority: priority(request.category, request.rank)))
        return id
    }

    /// Cancels one request: dropped from the queue, or its transfer stopped (within
    /// milliseconds: the cancel reaches curl) with its bytes kept as partial entries.
    public func cancel(_ id: PrefetchRequestID) {
        perform(policy.cancel(id))
    }

    /// Cancels every request for `video`.
    public func cancel(video: URL) {
        for id in (byVideo[video] ?? []).sorted() { perform(policy.cancel(id)) }
    }

    /// Cancels every request of `category`.
    public func cancel(category: PrefetchCategory) {
        for id in tracked.filter({ $0.value.request.category == category }).keys.sorted() { perform(policy.cancel(id)) }
    }

    /// Cancels everything queued or running.
    public func cancelAll() {
        for id in tracked.keys.sorted() { perform(policy.cancel(id)) }
    }

    /// Moves a request: a queued one takes its new place; a running one keeps running unless a
    /// request of a strictly higher category now waits behind a full cap (see `PrefetchPolicy`).
    /// A category missing from `prefetch.categories` cancels the request.
    public func reprioritize(_ id: PrefetchRequestID, category: PrefetchCategory, rank: Int) {
        guard tracked[id] != nil else { return }
        guard order.contains(category) else { return cancel(id) }
        tracked[id]?.request.category = category
        tracked[id]?.request.rank = rank
        perform(policy.reprioritize(id, to: priority(category, rank)))
    }

    // MARK: Yielding to playback

    /// A playing video's buffer fell under its watermark (true) or recovered (false). With
    /// `prefetch.pauseWhileStarving`, prefetch then runs at most `prefetch.starvingMaxConcurrent`
    /// transfers (0: none; the running ones are suspended, their bytes kept).
    public func setPlaybackStarving(_ starving: Bool) {
        perform(policy.setStarving(starving))
    }

    /// What may run while something plays (`PlaybackYield` decides it): with `urgentOnly` only the
    /// highest category, with `closed` nothing; the running jobs it shuts out are suspended, their
    /// bytes kept.
    public func setGate(_ gate: PrefetchGate) {
        perform(policy.setGate(gate))
    }

    /// Reports `player`'s buffered media (nil: it stopped playing); prefetch yields while any
    /// player holds less than `playback.bufferWatermarkMs`.
    public func reportBuffer(player: String, bufferedMs: Int?) {
        buffers[player] = bufferedMs
        setPlaybackStarving(buffers.values.contains { $0 < config.playback.bufferWatermarkMs })
    }

    // MARK: State

    /// Counters so far and what the fetched bytes became (see `PrefetchLedger`). Bytes of a
    /// transfer that just ended are counted once the cache has sealed it.
    public func ledger() -> PrefetchLedger {
        var ledger = counters
        recorder.fill(&ledger, cache: factory.cache)
        return ledger
    }

    /// Where a request is, or nil once it has ended (or was never queued).
    public func state(of id: PrefetchRequestID) -> PrefetchPolicy.State? { policy.state(of: id) }

    /// Requests queued (not running).
    public var queuedCount: Int { policy.queuedCount }

    /// Jobs running or stopping.
    public var activeCount: Int { policy.activeCount }

    /// Heap entries held, stale ones included (bounded by twice the queue plus 64).
    public var heapStorage: Int { policy.heapStorage }

    /// Returns once nothing is queued or running (at once when idle). While prefetch is paused
    /// for a starving player, queued requests keep it waiting.
    public func waitUntilIdle() async {
        guard !policy.isIdle else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Cancels everything, waits for the running jobs to end, finishes `events` and stops
    /// following the cache. Later requests are refused.
    public func shutdown() async {
        guard !closed else { return }
        closed = true
        cancelAll()
        while let job = jobs.values.first { await job.task.value }
        factory.cache.removeObserver(observer)
        continuation.finish()
    }

    // MARK: Executing the policy

    private func perform(_ actions: [PrefetchPolicy.Action]) {
        for action in actions {
            switch action {
            case .start(let id): start(id)
            case .stop(let id, _): jobs[id]?.cancellation.cancel()
            case .report(let id, let report): record(id, report)
            }
        }
        if policy.isIdle, !idleWaiters.isEmpty {
            let waiters = idleWaiters
            idleWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    private func start(_ id: PrefetchRequestID) {
        guard var entry = tracked[id] else { return }
        entry.runs += 1
        tracked[id] = entry
        counters.started += 1
        let cancellation = Cancellation()
        let offline = factory.reachability.isOffline(for: entry.request.videoURL)
        // CMCD marks each request of the run as a prefetch, of its category, for its video.
        var hints: CMCDHints?
        if config.network.cmcd.enabled {
            hints = CMCDHints(contentID: CMCDHints.contentID(for: entry.request.videoURL))
            hints?.prefetch = entry.request.category.rawValue
        }
        var planned = PrefetchJob(url: entry.request.videoURL, amount: entry.amount, factory: jobFactory(offline: offline),
                              constraints: constraints, manifestLimits: manifestLimits, includeAudio: includeAudio,
                              cancellation: cancellation, cmcd: hints,
                              sharesOfflineReachability: offline,
                              onFetch: { [recorder, tag = entry.request.tag] key in recorder.claim(key, tag: tag) })
        planned.turns = seats?(entry.request.tag)
        let job = planned
        emit(id, entry.request, .started(run: entry.runs))
        let task = Task { [weak self] in
            // The job's reads block: on a pool thread, never the cooperative pool. A job is
            // cancelled through its own `Cancellation` (`.stop`), so the pool's never fires.
            let result = (try? await BlockingPool.shared.run { job.run() })
                ?? PrefetchJob.Result(end: .stopped)
            await self?.jobEnded(id, result)
        }
        jobs[id] = Job(cancellation: cancellation, task: task)
    }

    private func jobEnded(_ id: PrefetchRequestID, _ result: PrefetchJob.Result) {
        jobs[id] = nil
        ending = (id, result)
        perform(policy.jobEnded(id, result.end))
        ending = nil
    }

    private func record(_ id: PrefetchRequestID, _ report: PrefetchPolicy.Report) {
        guard let entry = tracked[id] else { return }
        let result = ending?.id == id ? ending?.result : nil
        let bytes = result?.networkBytes ?? 0
        switch report {
        case .completed:
            counters.completed += 1
            let outcome = result?.outcome ?? PrefetchOutcome(url: entry.request.videoURL, variant: nil, manifests: [])
            emit(id, entry.request, .done(bytes: bytes, outcome: outcome))
            forget(id)
        case .cancelled:
            counters.cancelled += 1
            emit(id, entry.request, .cancelled(bytes: bytes))
            forget(id)
        case .suspended(let reason):
            counters.suspended += 1
            emit(id, entry.request, .suspended(bytes: bytes, reason: reason))
        case .retrying:
            counters.retried += 1
            emit(id, entry.request, .failed(failure(result, entry), bytes: bytes, retrying: true))
        case .failed:
            counters.failed += 1
            emit(id, entry.request, .failed(failure(result, entry), bytes: bytes, retrying: false),
                 notStored: result?.outcome?.notStored ?? [])
            forget(id)
        }
    }

    private func failure(_ result: PrefetchJob.Result?, _ entry: Tracked) -> ReelError {
        result?.error ?? ReelError(.internalFailure, "prefetch of '\(entry.request.videoURL.absoluteString)' failed")
    }

    private func forget(_ id: PrefetchRequestID) {
        guard let entry = tracked.removeValue(forKey: id) else { return }
        let url = entry.request.videoURL
        guard var ids = byVideo.removeValue(forKey: url) else { return }
        ids.remove(id)
        if !ids.isEmpty { byVideo[url] = ids }
    }

    private func emit(_ id: PrefetchRequestID, _ request: PrefetchRequest, _ kind: PrefetchEvent.Kind,
                      notStored: [PrefetchOutcome.Item] = []) {
        continuation.yield(PrefetchEvent(id: id, videoURL: request.videoURL, tag: request.tag, category: request.category,
                                         kind: kind, notStored: notStored))
    }

    private func priority(_ category: PrefetchCategory, _ rank: Int) -> PrefetchPriority {
        PrefetchPriority(tier: order.firstIndex(of: category) ?? order.count, rank: rank)
    }

    /// Why `request` cannot be queued, or nil.
    private func refusal(of request: PrefetchRequest) -> ReelError? {
        let url = request.videoURL.absoluteString
        if closed { return ReelError(.cancelled, "prefetch of '\(url)' refused: the prefetcher is shut down") }
        if !config.prefetch.enabled { return ReelError(.invalidInput, "prefetch of '\(url)' refused: prefetch.enabled is false") }
        guard let scheme = request.videoURL.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return ReelError(.unsupportedScheme, "prefetch of '\(url)' refused: only http(s) URLs are cached")
        }
        if let segments = request.segments, segments < 0 {
            return ReelError(.invalidInput, "prefetch of '\(url)' refused: segments must be 0 or more (got \(segments))")
        }
        if let mediaMs = request.mediaMs, mediaMs < 0 {
            return ReelError(.invalidInput, "prefetch of '\(url)' refused: media milliseconds must be 0 or more (got \(mediaMs))")
        }
        if !order.contains(request.category) {
            return ReelError(.invalidInput, "prefetch of '\(url)' refused: category '\(request.category)' is not in prefetch.categories")
        }
        return nil
    }

    /// The factory of one run: its own reachability, so one unreachable host fails only its own
    /// requests; a job whose host is offline already (`--offline`, or playback found that host
    /// gone) shares it and fails fast.
    private func jobFactory(offline: Bool) -> CacheDataSourceFactory {
        let reachability = offline ? factory.reachability : NetworkReachability()
        return CacheDataSourceFactory(cache: factory.cache, upstream: factory.upstream, origin: .prefetch, reachability: reachability)
    }
}
