import Foundation
import ReelCore
import ReelFeed
import ReelMedia
import ReelNet

/// A feed an app drives: live input in (scrolls, carousel swipes, taps, the app going to the
/// background and back, the network), the session's events out as they happen, a summary at any
/// time. The decisions are the `FeedCoordinator`'s; the engine performs them (real players with
/// decoders from one pool, prefetch into the cache, thumbnails, pages from the `FeedSource`) and
/// feeds the players' and prefetch's reports back, one input at a time in order.
///
/// The engine runs on a thread of its own and never blocks it; players, data sources and the
/// decoder pool do their blocking work on theirs. Time is the injected clock's (continuous by
/// default; a manual one in tests).
///
/// A screen reads what it draws without waiting for the engine: `snapshot` (layout, each card's
/// state, stage and play, the running totals), and, for an engine made with `pictures`, each
/// playing card's latest decoded `picture(card:)` and each card's `thumbnail(card:)`.
///
///     let engine = FeedEngine(stack: stack, source: source, config: config)
///     engine.show()
///     engine.scroll(to: 900)
///     let outcome = await engine.close()
public actor FeedEngine {
    private let executor = DedicatedThreadExecutor(name: "reel.session")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The session's events as they are recorded (the newest 65,536 kept for a slow reader);
    /// finishes when the engine has closed.
    public nonisolated let events: AsyncStream<SessionEvent>
    /// The engine's clock.
    public nonisolated let clock: EngineClock

    private var coordinator: FeedCoordinator
    private let performers: any FeedPerformers
    private let source: any FeedSource
    private let threadName: String
    /// Whether a download policy orders the link (`scheduler.policy`): it hears the preload order.
    private let ordersLink: Bool
    private var preloadOrder: [(card: String, urgent: Bool)] = []
    /// The granted cards, as the performers were last told (under a policy that decides).
    private var playingCards: [String: Double?] = [:]
    private var recorder = SessionRecorder()
    private var prefetch: FeedPrefetch?
    private var players: [PlayerID: any FeedPlayer] = [:]
    private let inbox: AsyncStream<Input>
    private let sink: AsyncStream<Input>.Continuation
    private let published: AsyncStream<SessionEvent>.Continuation
    /// Work the engine waits for before it reports: stops, event forwarding, thumbnails.
    private var work: [Int: Task<Void, Never>] = [:]
    private var nextWork = 0
    private var pageFetches: [Int: Task<Void, Never>] = [:]
    private var wakes: [Task<Void, Never>] = []
    private var monitor: Task<Void, Never>?
    private var closeWaiters: [CheckedContinuation<SessionOutcome, Never>] = []
    private var outcome: SessionOutcome?
    /// The snapshot as the engine builds it, and the newest one given to screens.
    private var building: FeedSnapshot
    private let latest: Locked<FeedSnapshot>
    /// The mounted players by card, and the decoded thumbnails, for screens.
    private let screenPlayers = Locked<[String: (id: PlayerID, player: any FeedPlayer)]>([:])
    private let thumbnails = Locked(PictureShelf(capacity: 64))

    /// What reaches the engine's loop, in order.
    enum Input: Sendable {
        /// An input for the coordinator at a time (nil: when the loop takes it).
        case feed(FeedInput, at: Double?)
        case player(PlayerID, PlayerEvent)
        case stopped(PlayerID, PlayerReport)
        case fetch(SessionFetch)
        case prefetch(PrefetchEvent, FeedInput?)
        case failure(card: String?, message: String)
        case monitor
        case workDone(Int)
        /// Everything sent before it has been taken in.
        case marker(CheckedContinuation<Void, Never>)
        case close
    }

    /// Sessions made in this process, for naming their players' threads apart.
    private static let made = Locked(0)

    /// An engine for `config` showing `source`'s feed on `screen` (default: `device.screenWidth`
    /// x `device.screenHeight`), reading through `factory` (cache-backed normally: `cacheFactory`
    /// when it is, for prefetch). With `pictures` it keeps what a screen draws: the picture each
    /// player presented last (`picture(card:)`) and the thumbnails decoded (`thumbnail(card:)`);
    /// a headless session leaves it off and decodes nothing it would not show. With `sound`, the
    /// players of shorts decode their sound to that format too, for a speaker (`sound(card:)`);
    /// carousel cards stay silent.
    public init(config: ReelConfig, source: any FeedSource, factory: any DataSourceFactory, cacheFactory: CacheDataSourceFactory?,
                screen: Size? = nil, clock: EngineClock = .continuous, pictures: Bool = false, sound: SoundFormat? = nil) {
        let threadName = "reel.player.f\(Self.made.withLock { $0 += 1; return $0 })"
        self.init(config: config, source: source, screen: screen, clock: clock, threadName: threadName,
                  performers: PlaybackPerformers(config: config, factory: factory, cacheFactory: cacheFactory, threadName: threadName,
                                                 pictures: pictures, sound: sound))
    }

    /// An engine reading through `stack` (its cache, when it has one, for prefetch too), with the
    /// stack's configuration.
    public init(stack: ReelStack, source: any FeedSource, screen: Size? = nil, clock: EngineClock = .continuous) {
        self.init(config: stack.config, source: source, factory: stack.factory, cacheFactory: stack.cacheFactory, screen: screen,
                  clock: clock)
    }

    /// An engine whose actions `performers` carry out (fakes in tests).
    package init(config: ReelConfig, source: any FeedSource, screen: Size? = nil, clock: EngineClock, threadName: String = "reel.player",
                 performers: any FeedPerformers) {
        self.source = source
        self.performers = performers
        self.clock = clock
        self.threadName = threadName
        ordersLink = DownloadPolicies.decides(config)
        let parameters = FeedCoordinator.Parameters(config: config, baseURL: source.baseURL, hasCache: performers.hasCache)
        coordinator = FeedCoordinator(config: config, parameters: parameters, screen: screen)
        building = FeedSnapshot(layout: coordinator.controller.layout, model: coordinator.controller.model)
        latest = Locked(building)
        (inbox, sink) = AsyncStream.makeStream(of: Input.self)
        (events, published) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(65_536))
        let sink = self.sink
        prefetch = parameters.prefetchEnabled ? performers.makePrefetch { sink.yield(.prefetch($0, $1)) } : nil
        if ordersLink {
            // A carousel plays no more cards than the link carries.
            performers.onLinkCarries { [clock] count in sink.yield(.feed(.linkCarries(count), at: clock.now())) }
        }
        Task { await self.start() }
    }

    deinit { executor.shutdown() }

    // MARK: - Input

    /// A launch window starts (a splash or the loading animation): with `launch.warmFeed` the
    /// first page and the start of its first videos are fetched before the feed shows.
    public nonisolated func launch() { send(.launch) }

    /// The feed shows and asks for its first page.
    public nonisolated func show() { send(.show) }

    /// The feed's vertical offset (points), with carousels' horizontal offsets by widget id.
    public nonisolated func scroll(to y: Double, carousels: [String: Double] = [:]) {
        send(.scroll(y: y, carousels: carousels, line: 0))
    }

    /// The user taps play on a card ("s3/0").
    public nonisolated func tap(card: String) { send(.tap(card: card, line: 0)) }

    /// The user pauses a card.
    public nonisolated func pause(card: String) { send(.pause(card: card)) }

    /// The app goes to the background: plays pause, prefetch stops.
    public nonisolated func background() { send(.background) }

    /// The app comes back.
    public nonisolated func foreground() { send(.foreground) }

    /// The network went away or came back.
    public nonisolated func network(online: Bool) { send(.network(online: online)) }

    /// Sends an input stamped now, or at `time` (seconds on the engine's clock: a recorded
    /// trace's sample time; never before the previous input's).
    package nonisolated func send(_ input: FeedInput, at time: Double? = nil) {
        sink.yield(.feed(input, at: time ?? clock.now()))
    }

    /// Returns once the engine has taken in every input sent before the call (a test's signal
    /// on a manual clock; what those inputs start may still report afterwards).
    package func settled() async {
        await withCheckedContinuation { continuation in
            if case .terminated = sink.yield(.marker(continuation)) { continuation.resume() }
        }
    }

    // MARK: - Output

    /// What a screen draws, as of the last input the engine took in (final once closed).
    public nonisolated var snapshot: FeedSnapshot { latest.withLock { $0 } }

    /// The picture `card`'s player presented last, while the card is mounted (nil before its
    /// first frame, and unless the engine was made with `pictures`).
    public nonisolated func picture(card: String) -> Picture? {
        screenPlayers.withLock { $0[card]?.player }?.picture
    }

    /// The sound of `card`'s player, while the card is mounted, for an engine made with `sound`
    /// and a short's card (nil otherwise): its PCM, where its picture stands and whether it plays.
    public nonisolated func sound(card: String) -> PlayerSound? {
        screenPlayers.withLock { $0[card]?.player }?.sound
    }

    /// `card`'s thumbnail (a merch card's image), decoded, once loaded (with `pictures`; the 64
    /// used last are kept, a few screens' worth).
    public nonisolated func thumbnail(card: String) -> Picture? {
        thumbnails.withLock { $0.take(card) }
    }

    /// The summary of the session so far (final once closed).
    public func summary() async -> SessionSummary {
        if let outcome { return outcome.summary }
        return await currentOutcome(ledger: await prefetch?.ledger() ?? FeedPrefetch.Ledger()).summary
    }

    /// Stops every player and prefetch, waits for them, and returns the events and summary.
    /// Calling it again returns the same outcome.
    public func close() async -> SessionOutcome {
        if let outcome { return outcome }
        sink.yield(.close)
        return await withCheckedContinuation { closeWaiters.append($0) }
    }

    // MARK: - The loop

    private func start() async {
        recorder.sample()
        let (sink, clock) = (self.sink, self.clock)
        monitor = Task {
            var next = clock.now()
            while !Task.isCancelled {
                sink.yield(.monitor)
                next += 0.25
                do { try await clock.sleep(until: next) } catch { return }
            }
        }
        var ledger: FeedPrefetch.Ledger?
        for await input in inbox {
            if case .close = input {
                if ledger == nil { ledger = await stopEverything() }
            } else {
                await process(input)
                publish()
            }
        }
        // Everything the players, data sources and prefetcher reported has been taken in.
        await report(ledger: ledger ?? FeedPrefetch.Ledger())
    }

    private func process(_ input: Input) async {
        switch input {
        case .feed(let feedInput, let time):
            await coordinate(feedInput, at: time ?? clock.now())
        case .player(let id, let event):
            await playerReported(id, event)
        case .stopped(let id, let report):
            recorder.stopped(id, report: report)
            players[id] = nil
            await coordinate(.player(id, .stopped))
        case .fetch(let fetch):
            recorder.fetched(fetch)
            let metrics = fetch.metrics
            record(.fetch(url: metrics.url, bytes: metrics.bytes, cacheBytes: metrics.cacheHitBytes, cacheHit: metrics.cacheHit,
                          origin: fetch.origin, card: fetch.card.map { CardID($0) }, durationMs: metrics.totalMs))
        case .prefetch(let event, let input):
            prefetchReported(event)
            if let input { await coordinate(input) }
        case .failure(let card, let message):
            record(.error(card: card.map { CardID($0) }, message: message))
        case .monitor:
            recorder.sample()
            building.totals.decoders = await performers.decoders()
            guard coordinator.phase != .closed else { return }
            var buffers: [PlayerID: Int] = [:]
            for (id, player) in players { buffers[id] = Int(player.buffered.seconds * 1000) }
            await coordinate(.buffers(buffers))
        case .workDone(let id):
            work[id] = nil
            pageFetches[id] = nil
        case .marker(let continuation):
            continuation.resume()
        case .close:
            break
        }
    }

    /// Hands an input to the coordinator and performs what it asks, in order.
    private func coordinate(_ input: FeedInput, at time: Double? = nil) async {
        let actions = coordinator.handle(input, at: time ?? clock.now())
        for action in actions { await perform(action) }
        if ordersLink {
            let order = coordinator.preloadQueue.map { (card: $0.card, urgent: $0.urgent) }
            if !order.elementsEqual(preloadOrder, by: { $0 == $1 }) {
                preloadOrder = order
                performers.preloadOrder(order)
            }
            let playing = coordinator.playingCards
            if playing != playingCards {
                playingCards = playing
                performers.playingCards(playing)
            }
        }
    }

    private func perform(_ action: FeedAction) async {
        switch action {
        case .fetchPage(let cursor):
            // Not work to wait for at the end: a page on its way then is not wanted.
            let (source, sink) = (self.source, self.sink)
            nextWork += 1
            let id = nextWork
            pageFetches[id] = Task {
                do {
                    sink.yield(.feed(.page(try await source.page(cursor)), at: nil))
                } catch {
                    sink.yield(.feed(.pageFailed(cursor, message: (error as? ReelError)?.description ?? "\(error)"), at: nil))
                }
                sink.yield(.workDone(id))
            }
        case .loadThumbnail(let card, let url):
            let (performers, sink, thumbnails) = (self.performers, self.sink, self.thumbnails)
            spawn {
                do {
                    if let picture = try await performers.loadThumbnail(card: card, url: url, report: { sink.yield(.fetch($0)) }) {
                        thumbnails.withLock { $0.put(card, picture) }
                    }
                } catch {
                    let reason = (error as? ReelError)?.description ?? "\(error)"
                    sink.yield(.failure(card: card, message: "thumbnail '\(url.absoluteString)': \(reason)"))
                }
            }
        case .prefetch(let order):
            if let input = await prefetch?.perform(order) { await coordinate(input) }
        case .reprioritize(let card, let category, let rank):
            await prefetch?.reprioritize(card: card, category: category, rank: rank)
        case .cancelPrefetch(let card):
            await prefetch?.cancel(card: card)
        case .setGate(let gate):
            // Under the link scheduler the jobs read manifests and init sections only, and the
            // scheduler keeps the playing video fed itself: the gate does not hold them.
            await prefetch?.setGate(ordersLink && gate == .urgentOnly ? .open : gate)
        case .setStarving(let starving):
            await prefetch?.setStarving(starving)
        case .mount(let id, let card, let video):
            mount(id, card: card, video: video)
        case .play(let id, let previewLimit):
            recorder.played(id)
            players[id]?.play(previewLimit: previewLimit.map { .milliseconds(Int64(($0 * 1000).rounded())) })
        case .pause(let id):
            players[id]?.pause()
        case .unmount(let id):
            guard let player = players[id] else { return }
            if let card = recorder.card(of: id) {
                screenPlayers.withLock { if $0[card]?.id == id { $0[card] = nil } }
            }
            let sink = self.sink
            spawn { sink.yield(.stopped(id, await player.stop())) }
        case .wake(let time):
            let (sink, clock) = (self.sink, self.clock)
            wakes.removeAll { $0.isCancelled }
            wakes.append(Task {
                do { try await clock.sleep(until: time) } catch { return }
                sink.yield(.feed(.wake, at: nil))
            })
        case .record(let fact):
            recordFact(fact)
        }
    }

    private func mount(_ id: PlayerID, card: String, video: URL) {
        let sink = self.sink
        // A short's sound is the feed's; carousel cards play muted, as on a phone.
        let model = coordinator.controller.model
        let short = model.card(id: card).map { model.describe($0).type == .short } ?? false
        let player = performers.makePlayer(id, card: card, video: video, sound: short) { sink.yield(.fetch($0)) }
        players[id] = player
        screenPlayers.withLock { $0[card] = (id, player) }
        recorder.mounted(id, card: card)
        spawn {
            for await event in player.events { sink.yield(.player(id, event)) }
        }
        player.prepare()
    }

    /// Runs `body` as work the engine waits for before it reports.
    private func spawn(_ body: @escaping @Sendable () async -> Void) {
        nextWork += 1
        let id = nextWork, sink = self.sink
        work[id] = Task {
            await body()
            sink.yield(.workDone(id))
        }
    }

    // MARK: - Reports

    /// What a player said: first frames, stalls and variant switches become events; what the
    /// feed's rules act on goes to the coordinator.
    private func playerReported(_ id: PlayerID, _ event: PlayerEvent) async {
        guard let card = recorder.card(of: id) else { return }
        switch event {
        case .firstFrame(let ttff):
            record(.firstFrame(card: CardID(card), ttffMs: ttff.totalMs, phases: ttff))
            await coordinate(.player(id, .firstFrame))
        case .stalled:
            building.cards[card, default: FeedSnapshot.Card()].stalled = true
            await coordinate(.player(id, .stalled))
        case .rebuffered(let waited):
            record(.stall(card: CardID(card), ms: waited.seconds * 1000))
        case .previewElapsed:
            await coordinate(.player(id, .previewElapsed))
        case .ended:
            await coordinate(.player(id, .ended))
        case .failed(let error):
            await coordinate(.player(id, .failed(error.description)))
        case .prerolled:
            await coordinate(.player(id, .prerolled))
        case .variantSwitched(let change):
            record(.variantSwitch(card: CardID(card), segment: change.segment, from: change.from, to: change.to, reason: change.reason))
        case .prepared, .paused, .bufferFull, .preempted, .stopped:
            break
        }
    }

    private func prefetchReported(_ event: PrefetchEvent) {
        let url = event.videoURL.absoluteString
        let card = event.tag.map { CardID($0) }
        switch event.kind {
        case .queued: record(.prefetchQueued(url: url, card: card, category: event.category))
        case .started: record(.prefetchStarted(url: url))
        case .done(let bytes, let outcome):
            for item in outcome.manifests + outcome.items {
                record(.fetch(url: item.url, bytes: item.bytes, cacheBytes: item.cacheBytes, cacheHit: item.alreadyCached,
                              origin: .prefetch, card: card))
            }
            record(.prefetchDone(url: url, bytes: bytes))
        case .cancelled(let bytes): record(.prefetchCancelled(url: url, bytes: bytes))
        case .failed(let error, _, let retrying):
            if !retrying { record(.error(card: card, message: "prefetch of '\(url)' failed: \(error.description)")) }
        case .suspended:
            break
        }
    }

    private func recordFact(_ fact: FeedFact) {
        if case .warning(let warning) = fact { return recorder.warn(warning) }
        if let kind = SessionEvent.Kind(fact) { record(kind) }
    }

    private func record(_ kind: SessionEvent.Kind) {
        building.apply(kind)
        published.yield(recorder.record(kind, at: clock.now()))
    }

    /// Gives screens what the last input changed: the layout and model, the offset, the cards,
    /// the totals as counted.
    private func publish() {
        building.version += 1
        building.phase = coordinator.phase
        building.layout = coordinator.controller.layout
        building.model = coordinator.controller.model
        building.offset = coordinator.controller.visibility.offset
        building.time = clock.now()
        building.totals.networkBytes = recorder.networkBytes
        building.totals.networkRequests = recorder.networkRequests
        building.totals.bytesPlayed = recorder.bytesPlayed
        latest.withLock { $0 = building }
    }

    // MARK: - The end

    /// Unmounts every card (closing every play), waits for players, prefetch and thumbnails, and
    /// ends the inbox: what is in it is the last to take in. Returns the prefetch ledger.
    private func stopEverything() async -> FeedPrefetch.Ledger {
        await coordinate(.close)
        performers.linkClosing()
        for wake in wakes { wake.cancel() }
        for fetch in pageFetches.values { fetch.cancel() }
        // Work may add work (a forwarder's last events); wait until none is left.
        while !work.isEmpty {
            let running = work
            for (id, task) in running {
                await task.value
                work[id] = nil
            }
        }
        let ledger = await prefetch?.finish() ?? FeedPrefetch.Ledger()
        monitor?.cancel()
        sink.finish()
        return ledger
    }

    /// Counts what the session left running and reports to whoever waits for `close()`.
    private func report(ledger: FeedPrefetch.Ledger) async {
        // A stopped player lets its demuxer's thread go; one still running after a while was kept.
        let prefix = threadName + "."
        _ = await DedicatedThread.waitUntil(prefix: prefix, atMost: 0, limit: .seconds(10))
        recorder.playerThreadsLeft = DedicatedThread.running(prefix: prefix)
        recorder.sample()
        let outcome = await currentOutcome(ledger: ledger)
        self.outcome = outcome
        building.totals.decoders = outcome.summary.decoders
        publish()
        published.finish()
        for waiter in closeWaiters { waiter.resume(returning: outcome) }
        closeWaiters = []
    }

    private func currentOutcome(ledger: FeedPrefetch.Ledger) async -> SessionOutcome {
        let coordinator = self.coordinator
        return recorder.outcome(ledger: ledger, decoders: await performers.decoders(), bandwidth: performers.bandwidthMeter?.snapshot,
                                unread: { coordinator.unreadReason(card: $0) })
    }
}
