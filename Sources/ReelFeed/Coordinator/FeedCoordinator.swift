import Foundation
import ReelCore

/// The feed's decisions in one value: layout, visibility, the play rules, landing prediction and
/// preload targets, prefetch by visibility and its gate, players by card. Inputs at times in
/// (`FeedInput`: scrolls, taps, pages, players' and prefetch's reports, wake-ups), ordered actions
/// out (`FeedAction`); it performs no I/O and reads no clock, so a test drives it on a manual
/// clock and a simulation in virtual time. `FeedEngine` performs its actions with real players.
///
/// It is the one owner of what plays: visibility reports geometry against thresholds, the play
/// policy (held by value) decides, and a grant shows as `active` without going back to it.
/// Low-end mode and preload-or-range prefetch are parameters of its rules, not branches of its
/// performers.
public struct FeedCoordinator: Sendable {
    /// What the configuration and the engine decide before the session starts.
    public struct Parameters: Sendable {
        public var isLowEnd: Bool
        /// Prefetch is on and has a cache to fill.
        public var prefetchEnabled: Bool
        /// `preload.enabled`: the preload policy drives prefetch (else visibility ranges do).
        public var preloadEnabled: Bool
        public var warmFeed: Bool
        /// `prefetch.categories` in order; a category missing is not prefetched.
        public var categories: [PrefetchCategory]
        /// `prefetch.pageScreens`: a page's videos within this many screens below are prefetched.
        public var pageScreens: Double
        /// `preload.mediaMs`: the media a `media` stage fetches.
        public var preloadMediaMs: Int
        /// `playback.bufferWatermarkMs`: a playing video below this runs low.
        public var bufferWatermarkMs: Int
        public var thumbnailQuality: Int
        public var scale: Double
        /// Relative catalog and image URLs resolve against it.
        public var baseURL: URL

        public init(config: ReelConfig, baseURL: URL, hasCache: Bool = true) {
            isLowEnd = config.device.isLowEnd
            prefetchEnabled = config.prefetch.enabled && hasCache
            preloadEnabled = config.preload.enabled
            warmFeed = config.launch.warmFeed
            categories = PrefetchCategory.order(config)
            pageScreens = config.prefetch.pageScreens
            preloadMediaMs = config.preload.mediaMs
            bufferWatermarkMs = config.playback.bufferWatermarkMs
            thumbnailQuality = config.feed.thumbnailQuality
            scale = config.device.scale
            self.baseURL = baseURL
        }
    }

    /// Where the session is.
    public enum Phase: Sendable, Equatable {
        /// Made, or in a launch window: the feed is not on screen.
        case launching
        case shown
        /// Closed: nothing new is mounted or started.
        case closed
    }

    public let parameters: Parameters
    let config: ReelConfig
    public internal(set) var controller: FeedController
    var policy: PlayPolicy
    var yield: PlaybackYield
    public internal(set) var phase = Phase.launching
    /// The controller's clock: input time, never going back.
    public internal(set) var time = 0.0
    var cards: [String: CoordinatedCard] = [:]
    var players: [PlayerID: PlayerRecord] = [:]
    var nextPlayer = 0
    var scheduledWakes: Set<Double> = []
    var isBackground = false
    var isOffline = false
    /// The gate last given to the performers.
    var gate = PrefetchGate.open
    /// Media each playing player holds (its last sample, 0 after a stall), for `setStarving`.
    var buffers: [PlayerID: Int] = [:]
    var starving = false
    /// Each card's open prefetch request: why, and the stage it brings the card to.
    var openPrefetch: [String: (category: PrefetchCategory, stage: PreloadStage)] = [:]

    // Preload (FeedCoordinator+Preload).
    var preload: PreloadPolicy
    var predictor: ScrollPredictor
    let carouselPrediction: ScrollPredictor.Parameters
    var carouselPredictors: [Int: ScrollPredictor] = [:]
    var carouselOffsets: [Int: Double] = [:]
    /// The offsets that put each widget at the top: where a predicted landing snaps.
    var stops: [Double] = []
    /// The stage each card reached, by card id.
    public internal(set) var reached: [String: PreloadStage] = [:]
    /// Why the preload policy last dropped a card (cleared when it wants the card again).
    var dropped: [String: PreloadPolicy.DropReason] = [:]
    /// Cards mounted because a fling lands on them, before visibility mounted them.
    var preloadMounted: Set<String> = []

    // The launch window (FeedCoordinator+Launch).
    var warm: FeedController?
    var warmPage: FeedPage?
    var warmCursor: FeedCursor?

    /// Actions of the input being handled, in order.
    var actions: [FeedAction] = []

    public init(config: ReelConfig, parameters: Parameters, screen: Size? = nil, registry: ComponentRegistry = .standard) {
        self.config = config
        self.parameters = parameters
        controller = FeedController(config: config, screen: screen, registry: registry)
        policy = PlayPolicy(config: config)
        yield = PlaybackYield(config)
        preload = PreloadPolicy(parameters: PreloadPolicy.Parameters(config.preload))
        let prediction = ScrollPredictor.Parameters(config.preload.prediction)
        predictor = ScrollPredictor(parameters: prediction)
        carouselPrediction = prediction
    }

    /// Whether the preload policy drives prefetch (else the visibility ranges do).
    public var preloads: Bool { parameters.preloadEnabled && parameters.prefetchEnabled && !parameters.isLowEnd }

    var closing: Bool { phase == .closed }

    /// Applies one input at `time` and returns what to do, in order.
    public mutating func handle(_ input: FeedInput, at time: Double) -> [FeedAction] {
        actions = []
        switch input {
        case .launch:
            launch(at: time)
        case .show:
            show(at: time)
        case .scroll(let y, let carousels, let line):
            guard !closing, phase == .shown, !isBackground else { break }
            scroll(ScrollSample(time: time, y: y, x: carousels, line: line))
        case .tap(let card, let line):
            guard !closing, phase == .shown, !isBackground else { break }
            advance(to: time)
            handle(controller.tap(card, at: self.time, line: line))
        case .pause(let card):
            advance(to: time)
            tellPolicy(.userPause, card)
        case .page(let page):
            received(page, at: time)
        case .pageFailed(_, let message):
            record(.warning("a page of the feed could not be fetched: \(message)"))
        case .player(let id, let report):
            advance(to: time)
            playerReported(id, report)
        case .buffers(let samples):
            if !closing { buffered(samples) }
        case .prefetched(let card):
            if let open = openPrefetch.removeValue(forKey: card) { reach(card, open.stage) }
        case .prefetchEnded(let card):
            openPrefetch[card] = nil
        case .background:
            background(at: time)
        case .foreground:
            foreground(at: time)
        case .network(let online):
            isOffline = !online
            updateGate()
        case .linkCarries(let count):
            advance(to: time)
            perform(policy.linkCarries(count, at: self.time))
        case .wake:
            guard !closing else { break }
            advance(to: time)
            updatePreload()
        case .close:
            close(at: time)
        }
        scheduleWake()
        return actions
    }

    // MARK: - Time

    /// Moves the clock to `time` (never back) and releases the held transitions due by then, in
    /// time order.
    mutating func advance(to time: Double) {
        var lastDeadline = -Double.infinity
        while let deadline = controller.nextDeadline, deadline <= time, deadline > lastDeadline {
            lastDeadline = deadline
            self.time = max(self.time, deadline)
            handle(controller.tick(at: self.time))
        }
        self.time = max(self.time, time)
    }

    /// Asks to be woken when the next held transition is due, once per deadline.
    private mutating func scheduleWake() {
        guard !closing, let next = controller.nextDeadline, scheduledWakes.insert(next).inserted else { return }
        actions.append(.wake(at: next))
    }

    private mutating func scroll(_ sample: ScrollSample) {
        advance(to: sample.time)
        var sample = sample
        sample.time = time
        handle(controller.scroll(sample))
        predict(sample)
        updatePreload()
    }

    private mutating func received(_ page: FeedPage, at time: Double) {
        if phase == .launching {
            warmed(page, at: time)
            return
        }
        guard !closing else { return }
        advance(to: time)
        handle(controller.receive(page, at: self.time))
    }

    /// Performs what one input to the controller produced.
    mutating func handle(_ output: FeedOutput) {
        for warning in output.warnings { record(.warning(warning)) }
        var loaded: [Int] = []
        for event in output.events {
            switch event.kind {
            case .transition(let transition):
                transitioned(transition)
            case .pageLoaded(_, let widgets):
                loaded += widgets
            case .collapsed(let widgetID, let reason):
                record(.warning("widget '\(widgetID)' collapsed: \(reason)"))
            case .tap(let cardID, let ref):
                tapped(cardID, ref)
            case .pageRequested:
                break
            }
        }
        // After the page's own transitions: the cards already near are not the page's to prefetch
        // (their players or the prefetch range fetch them).
        if !loaded.isEmpty { pageLoaded(loaded) }
        if let cursor = output.pageRequest { requestPage(cursor) }
    }

    mutating func record(_ fact: FeedFact) {
        actions.append(.record(fact))
    }

    // MARK: - Background and network

    private mutating func background(at time: Double) {
        guard !isBackground, !closing else { return }
        advance(to: time)
        isBackground = true
        // Cards that wait first, so that the playing ones hand play to nobody.
        let onScreen = cards.values.filter { $0.state.mayPlay }.sorted { ($0.playing ? 1 : 0, $0.ref) < ($1.playing ? 1 : 0, $1.ref) }
        for card in onScreen { tellPolicy(.paused, card.id) }
        updateGate()
    }

    private mutating func foreground(at time: Double) {
        guard isBackground, !closing else { return }
        advance(to: time)
        isBackground = false
        updateGate()
        // What is on screen may play again, as if it had just come into view.
        for card in cards.values.sorted(by: { $0.ref < $1.ref }) where card.state.mayPlay {
            tellPolicy(.ready, card.id)
        }
    }

    /// Sets the gate from what plays, closed in the background and offline.
    mutating func updateGate() {
        let wanted = isBackground || isOffline ? PrefetchGate.closed : yield.gate
        guard parameters.prefetchEnabled, wanted != gate else { return }
        gate = wanted
        actions.append(.setGate(wanted))
    }

    // MARK: - The end

    /// Unmounts every card (closing every play with a revocation).
    private mutating func close(at time: Double) {
        guard !closing else { return }
        advance(to: time)
        phase = .closed
        for card in cards.values.sorted(by: { $0.ref < $1.ref }) where card.state.isMounted || card.player != nil {
            if let playCard = card.playCard {
                perform(policy.handle(PlayEvent(time: self.time, kind: .unmounted, card: playCard)))
            }
            unmount(card.id)
        }
    }

    // MARK: - Reading

    /// The cards the session knows, in feed order.
    public var knownCards: [CoordinatedCard] { cards.values.sorted { $0.ref < $1.ref } }

    /// The card with this id, if known.
    public func card(_ id: String) -> CoordinatedCard? { cards[id] }

    /// The cards the play rules granted and not yet revoked (a play that waits for its first
    /// frame among them), each with the media second where its play stops by itself (an autoplay
    /// preview's limit; nil: it plays on).
    package var playingCards: [String: Double?] {
        Dictionary(uniqueKeysWithValues: cards.values.filter(\.playing).map { ($0.id, $0.playsUntil) })
    }

    /// The cards the preload policy wants at `media` or beyond, with their videos and whether
    /// they are urgent (about to be seen), the urgent ones first, then by rank (nearest the focus
    /// first): the order a download policy sees the videos ahead in. Empty when preload does not
    /// drive prefetch.
    package var preloadQueue: [(card: String, video: URL, urgent: Bool)] {
        guard preloads else { return [] }
        return preload.targets
            .filter { $0.value.stage >= .media }
            .compactMap { ref, target -> (card: String, video: URL, target: PreloadPolicy.Target)? in
                guard controller.model.items.indices.contains(ref.widget) else { return nil }
                let id = controller.model.describe(ref).cardID
                guard let video = cards[id]?.video else { return nil }
                return (id, video, target)
            }
            .sorted { a, b in
                if a.target.urgent != b.target.urgent { return a.target.urgent }
                if a.target.rank != b.target.rank { return a.target.rank < b.target.rank }
                return a.card < b.card
            }
            .map { ($0.card, $0.video, $0.target.urgent) }
    }

    /// Why the prefetched bytes of a card nobody read were wasted, at the session's end: the user
    /// went past it (or a fling flew past it), its request was dropped (the prediction or the
    /// range moved away), or it was still wanted.
    public func unreadReason(card id: String) -> UnreadReason {
        let layout = controller.layout, top = controller.visibility.offset
        guard let card = cards[id], let number = layout.cardNumber(card.ref) else { return .sessionEnded }
        let rect = layout.cardRects[number]
        let passed = controller.visibility.direction == .down ? rect.maxY <= top : rect.minY >= top + layout.viewport.height
        if passed || dropped[id] == .flownPast { return .scrolledPast }
        return dropped[id] != nil ? .cancelled : .sessionEnded
    }

    public enum UnreadReason: Sendable, Equatable {
        case scrolledPast, cancelled, sessionEnded
    }
}

/// What the coordinator keeps per card: where it is, what it shows, its visibility state, its
/// player and whether that plays now, and what was asked for it.
public struct CoordinatedCard: Sendable, Equatable {
    public internal(set) var ref: CardRef
    public let id: String
    public let widgetID: String
    public let type: WidgetType?
    /// The video's URL against the base URL; nil for merch and collapsed widgets.
    public let video: URL?
    public internal(set) var state: VisibilityState = .idle
    public internal(set) var player: PlayerID?
    public internal(set) var playing = false
    /// Where the current play stops by itself: its preview limit, media seconds.
    var playsUntil: Double?
    var thumbnailRequested = false
    var prefetchRequested = false

    /// The card as the play policy knows it; nil for a collapsed widget.
    var playCard: PlayCard? {
        type.map { PlayCard(ref: ref, id: id, widgetID: widgetID, widgetType: $0) }
    }
}

/// What the coordinator keeps per player it asked for.
struct PlayerRecord: Sendable, Equatable {
    let card: String
    /// It holds its first frame decoded, ready to show.
    var prerolled = false
    /// It has shown a frame.
    var framed = false
}
