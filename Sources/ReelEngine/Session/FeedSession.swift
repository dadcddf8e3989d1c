import Foundation
import ReelCore
import ReelMedia
import ReelNet

/// Runs a scroll trace in real time through the whole engine, as DESIGN.md's data flow says:
/// pages from the mock `FeedAPI` (with their simulated latency), layout and visibility from the
/// `FeedController`, prefetch requests from cards entering the prefetch range, thumbnails through
/// the cache when a card comes near, a `Player` (decoder from one shared `DecoderPool`) only while
/// its card is mounted, the `PlayArbiter` deciding who plays, and every step as a `SessionEvent`.
///
/// One loop takes the session's inputs in order (trace samples when due, page arrivals and held
/// transitions, players' reports, data sources' reads), so the arbiter's actions are performed in
/// the order it gave them. The actor runs on a thread of its own; players, data sources and the
/// decoder pool do their blocking work on theirs.
public actor FeedSession {
    private let executor = DedicatedThreadExecutor(name: "reel.session")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let setup: SessionSetup
    let isLowEnd: Bool
    let api: FeedAPI
    let latency: Double
    var controller: FeedController
    let arbiter: PlayArbiter
    let pool: DecoderPool
    let prefetch: SessionPrefetch
    let playerOptions: PlayerOptions
    let inbox: AsyncStream<SessionInput>
    let sink: AsyncStream<SessionInput>.Continuation

    var start = ContinuousClock.now
    /// Time of the last event, so events never go back in time.
    var lastEventTime = 0.0
    /// The controller's clock: trace time, never going back.
    var controllerTime = 0.0
    var events: [SessionEvent] = []
    var warnings: [String] = []
    var cards: [String: SessionCard] = [:]
    var players: [Int: SessionPlayer] = [:]
    var nextPlayer = 0
    var pendingPage: (time: Double, page: FeedPage)?
    var scheduledWakes: Set<Double> = []
    var fetches: [SessionFetch] = []
    /// Players whose buffer prefetch was last told about.
    var buffersReported: Set<Int> = []
    var peakRSSMB = 0.0
    var peakThreads = 0
    /// The session's player threads still running after it closed (a leak when not 0).
    var playerThreadsLeft = 0
    /// Sessions made in this process, for naming their players' threads apart.
    private static let made = Locked(0)
    /// Work whose end the session waits for before it reports: stops, event forwarding, thumbnails.
    var tasks: [Task<Void, Never>] = []
    /// Set once the trace is over: nothing new is mounted or started.
    var closing = false
    var prefetchLedger = SessionPrefetch.Ledger()

    // Preload (FeedSession+Preload).
    let preloadEnabled: Bool
    var preload: PreloadPolicy
    var predictor: ScrollPredictor
    let carouselPrediction: ScrollPredictor.Parameters
    var carouselPredictors: [Int: ScrollPredictor] = [:]
    /// Carousels' horizontal offsets by widget position, as the trace last set them.
    var carouselOffsets: [Int: Double] = [:]
    /// The offsets that put each widget at the top: where a predicted landing snaps.
    var stops: [Double] = []
    /// The stage each card reached, by card id.
    var reached: [String: PreloadStage] = [:]
    /// Why the preload policy last dropped a card (cleared when it wants the card again).
    var dropped: [String: PreloadPolicy.DropReason] = [:]
    /// Cards mounted because a fling lands on them, before visibility mounted them.
    var preloadMounted: Set<String> = []
    var yield: PlaybackYield

    public init(setup: SessionSetup) {
        self.setup = setup
        let config = setup.config
        isLowEnd = config.device.isLowEnd
        api = FeedAPI(catalog: setup.catalog, config: config)
        latency = api.latency.seconds
        controller = FeedController(config: config, screen: setup.screen)
        arbiter = PlayArbiter(config: config)
        pool = DecoderPool(config: config)
        var playerOptions = PlayerOptions(config: config)
        playerOptions.threadName = "reel.player.f\(Self.made.withLock { $0 += 1; return $0 })"
        self.playerOptions = playerOptions
        preloadEnabled = config.preload.enabled
        preload = PreloadPolicy(parameters: PreloadPolicy.Parameters(config.preload))
        let prediction = ScrollPredictor.Parameters(config.preload.prediction)
        predictor = ScrollPredictor(parameters: prediction)
        carouselPrediction = prediction
        yield = PlaybackYield(config)
        let (inbox, sink) = AsyncStream.makeStream(of: SessionInput.self)
        self.inbox = inbox
        self.sink = sink
        prefetch = SessionPrefetch(config: config, factory: setup.cacheFactory) { sink.yield(.prefetch($0)) }
    }

    deinit { executor.shutdown() }

    /// Runs the trace from its first sample to its end (plus the longest hold of a fast scroll),
    /// after the launch window when there is one (`FeedSession+Launch`), then unmounts every card
    /// and waits for players, prefetch and thumbnails to finish.
    public func run() async -> SessionOutcome {
        start = .now
        var inputs = inbox.makeAsyncIterator()
        let trace = setup.trace
        let parameters = controller.visibility.parameters
        let window = setup.launchSeconds
        let end = window + (trace.samples.last?.time ?? 0) + max(parameters.settle, parameters.maxDelay)
        let (start, sink) = (self.start, self.sink)
        let driver = Task {
            if window > 0 {
                try? await Task.sleep(until: start + .seconds(window), clock: .continuous)
                sink.yield(.feedShown)
            }
            for (index, sample) in trace.samples.enumerated() {
                try? await Task.sleep(until: start + .seconds(window + sample.time), clock: .continuous)
                sink.yield(.sample(index))
            }
            try? await Task.sleep(until: start + .seconds(end), clock: .continuous)
            sink.yield(.end)
        }
        let monitor = Task {
            while !Task.isCancelled {
                sink.yield(.monitor)
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        sampleMemory()
        if window > 0 { await warmLaunch() } else { await handle(controller.start(at: 0)) }
        while let input = await inputs.next() {
            if case .end = input { break }
            await process(input)
        }
        await advance(to: end)
        monitor.cancel()
        await driver.value
        await close()
        // Everything the players, data sources and prefetcher reported is in the inbox now.
        sink.finish()
        while let input = await inputs.next() { await process(input) }
        await countPlayerThreadsLeft()
        sampleMemory()
        return await outcome()
    }

    /// Seconds since the session started.
    var elapsed: Double { (ContinuousClock.now - start).seconds }

    /// Records an event now.
    func emit(_ kind: SessionEvent.Kind) {
        let time = max(lastEventTime, elapsed)
        lastEventTime = time
        events.append(SessionEvent(time: time, kind: kind))
    }

    // MARK: - The loop

    func process(_ input: SessionInput) async {
        switch input {
        case .sample where closing, .wake where closing, .feedShown where closing:
            break
        case .feedShown:
            await feedShown()
        case .sample(let index):
            var sample = setup.trace.samples[index]
            sample.time += setup.launchSeconds
            await advance(to: sample.time)
            sample.time = max(sample.time, controllerTime)
            controllerTime = sample.time
            await handle(controller.scroll(sample))
            predict(sample)
            await updatePreload()
        case .wake:
            await advance(to: elapsed)
            await updatePreload()
        case .monitor:
            sampleMemory()
            if !closing { await reportBuffers() }
        case .end:
            break
        case .player(let instance, let event):
            await playerReported(instance, event)
        case .stopped(let instance, let report):
            players[instance]?.report = report
            players[instance]?.player = nil
        case .fetch(let fetch):
            fetches.append(fetch)
            let metrics = fetch.metrics
            emit(.fetch(url: metrics.url, bytes: metrics.bytes, cacheBytes: metrics.cacheHitBytes, cacheHit: metrics.cacheHit,
                        origin: fetch.origin, card: fetch.card.map { CardID($0) }, durationMs: metrics.totalMs))
        case .prefetch(let event):
            prefetchReported(event)
        case .failure(let card, let message):
            emit(.error(card: card.map { CardID($0) }, message: message))
        }
    }

    /// Delivers the page and releases the held transitions due up to `time`, in time order (as
    /// `FeedReplay` does in trace time), then schedules a wake-up for the next of them.
    func advance(to time: Double) async {
        var lastDeadline = -Double.infinity
        while true {
            let deadline = controller.nextDeadline
            if let arrival = pendingPage, arrival.time <= time, deadline.map({ arrival.time <= $0 }) ?? true {
                pendingPage = nil
                controllerTime = max(controllerTime, arrival.time)
                await handle(controller.receive(arrival.page, at: controllerTime))
            } else if let deadline, deadline <= time, deadline > lastDeadline {
                lastDeadline = deadline
                controllerTime = max(controllerTime, deadline)
                await handle(controller.tick(at: controllerTime))
            } else {
                break
            }
        }
        scheduleWake()
    }

    private func scheduleWake() {
        let next = [pendingPage?.time, controller.nextDeadline].compactMap { $0 }.min()
        guard let next, !closing, scheduledWakes.insert(next).inserted else { return }
        let (start, sink) = (self.start, self.sink)
        Task {
            try? await Task.sleep(until: start + .seconds(next), clock: .continuous)
            sink.yield(.wake)
        }
    }

    /// Performs what one input to the controller produced.
    func handle(_ output: FeedOutput) async {
        warnings += output.warnings
        var loaded: [Int] = []
        for event in output.events {
            switch event.kind {
            case .transition(let transition):
                await transitioned(transition)
            case .pageLoaded(_, let widgets):
                loaded += widgets
            case .collapsed(let widgetID, let reason):
                warnings.append("widget '\(widgetID)' collapsed: \(reason)")
            case .tap(let cardID, let ref):
                await tapped(cardID, ref)
            case .pageRequested:
                break
            }
        }
        // After the page's own transitions: the cards already near are not the page's to prefetch
        // (their players or the prefetch range fetch them).
        if !loaded.isEmpty { await pageLoaded(loaded) }
        if let cursor = output.pageRequest {
            pendingPage = (controllerTime + latency, api.page(cursor))
            scheduleWake()
        }
    }

    private func sampleMemory() {
        if let megabytes = ResidentMemory.megabytes() { peakRSSMB = max(peakRSSMB, megabytes) }
        if let threads = ProcessThreads.count() { peakThreads = max(peakThreads, threads) }
    }

    // MARK: - The end

    /// Unmounts every card (closing every play with a revocation), stops every player and waits
    /// for what is still running.
    private func close() async {
        closing = true
        for card in cards.values.sorted(by: { $0.ref < $1.ref }) where card.state.isMounted || card.player != nil {
            if let playCard = card.playCard {
                await perform(await arbiter.handle(PlayEvent(time: controllerTime, kind: .unmounted, card: playCard)))
            }
            unmount(card.id)
        }
        // Tasks may add tasks (a forwarder's last events); wait until none is left.
        while !tasks.isEmpty {
            let running = tasks
            tasks = []
            for task in running { await task.value }
        }
        prefetchLedger = await prefetch.finish()
    }

    /// Counts the session's player threads still running once every stop was taken in: a stopped
    /// player lets its demuxer's thread go, so one still running after a while was kept.
    private func countPlayerThreadsLeft() async {
        let prefix = playerOptions.threadName + "."
        _ = await DedicatedThread.waitUntil(prefix: prefix, atMost: 0, limit: .seconds(10))
        playerThreadsLeft = DedicatedThread.running(prefix: prefix)
    }
}
