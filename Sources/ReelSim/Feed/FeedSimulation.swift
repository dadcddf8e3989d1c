import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelManifest
import ReelMedia
import ReelNet
import ReelServer

/// A feed session in virtual time: the same `FeedCoordinator` the engine drives, with models in
/// place of its performers (the link: `SimLink`; the disk cache: resources by key; players: a
/// buffer of media filled by segment arrivals and drained at 1x while playing; prefetch: the
/// real `PrefetchPolicy` running jobs that fetch manifests and first segments), and the same
/// events, summary and report as `reel feed run`. Deterministic: the same inputs give the same
/// session, in milliseconds of CPU instead of seconds of wall time.
///
/// A model, not the engine: docs/simulation.md says what each part assumes and how far its
/// figures are from the real engine's.
package final class FeedSimulation {
    /// What is due on the agenda.
    enum Agenda {
        case input(FeedInput)
        /// A player's timer, valid while the player's version is unchanged.
        case player(PlayerID, version: Int)
        case monitor
        /// The download policy asked to look again (valid while the version is unchanged).
        case link(version: Int)
        /// The user looks at what plays (a retention user).
        case user
        /// Something the user scheduled for itself.
        case call((FeedSimulation) -> Void)
        case end
    }

    /// Who reads a resource.
    enum Reader: Hashable {
        case player(PlayerID)
        case prefetch(PrefetchRequestID)
        case thumbnail(String)
        /// A segment the download policy asked for a card no player reads yet (into the cache).
        case scheduled(String)
        /// The media playlist of a variant a player switched to, read beside its segment
        /// (`readPlaylist`): the player's fetch, which moves none of its steps.
        case switchPlaylist(PlayerID)

        /// A player's own read: what it reads of a prefetched entry was not wasted.
        var isPlayers: Bool {
            switch self {
            case .player, .switchPlaylist: true
            case .prefetch, .thumbnail, .scheduled: false
            }
        }
    }

    /// A resource in the simulated cache.
    struct Entry {
        var total: Int
        /// Bytes stored (a cancelled transfer leaves a partial entry, resumed later).
        var stored = 0
        var complete: Bool { stored >= total }
        /// Bytes prefetch fetched from the network, the card they were for, and whether playback
        /// has read them since.
        var prefetched = 0
        var card: String?
        var read = false
    }

    /// A resource on its way: who reads it, and what it costs.
    struct Transfer {
        var key: String
        var url: String
        var kind: ResourceKind
        var total: Int
        /// Bytes the cache held when it started (a resumed partial entry).
        var offset: Int
        var owner: Reader
        var joiners: [Reader] = []
        /// Readers waiting for a part of the body (the first frame's bytes), by body bytes.
        var marks: [(reader: Reader, bytes: Int)] = []
        var startedAt: Double
    }

    package let config: ReelConfig
    package let models: SimModels
    package let baseURL: URL
    let api: FeedAPI
    package private(set) var now = 0.0
    var agenda = EventQueue<Agenda>()
    var link: SimLink
    package private(set) var coordinator: FeedCoordinator
    var recorder = SessionRecorder()
    /// Inputs for the coordinator at the current time, in order.
    var inbox: [FeedInput] = []
    var estimator: BandwidthEstimator
    var lastThroughput: (bitsPerSecond: Int, at: Double)?
    var entries: [String: Entry] = [:]
    var transfers: [Int: Transfer] = [:]
    var inFlight: [String: Int] = [:]
    var nextTransfer = 0
    /// Requests the link carried and the body bytes it delivered: the CDN's bill.
    var cdnRequests = 0
    var cdnBytes: Int64 = 0
    var players: [PlayerID: SimPlayer] = [:]
    var peakMounted = 0
    var mounts = 0
    let constraints: PlaybackConstraints
    let buffer: BufferPolicy
    let preroll: Bool
    // Prefetch (FeedSimulation+Prefetch).
    var prefetchPolicy: PrefetchPolicy
    var requests: [PrefetchRequestID: SimRequest] = [:]
    var requestOfCard: [String: PrefetchRequestID] = [:]
    var nextRequest: UInt64 = 0
    var prefetchedBytes: Int64 = 0
    /// The download policy `scheduler.policy` names (FeedSimulation+Download): today's grants what
    /// the players' own rules ask for; under the link scheduler it decides the segments itself.
    var downloadPolicy: any DownloadPolicy
    let schedulerDecides: Bool
    let maxTransfers: Int
    /// Segments the download policy asked for, on the link, by cache key.
    var scheduled: [String: SegmentRequest] = [:]
    /// Segments the policy gave up on the link (`giveUpLate`).
    package internal(set) var givenUp = 0
    /// Thumbnails waiting for the policy's turn (under a policy that decides), in the order asked.
    var waitingThumbnails: [(card: String, url: URL)] = []
    /// The playing cards the link carries, as the coordinator was last told.
    var linkCarries: Int?
    var linkWake: (version: Int, at: Double)?
    var linkVersion = 0
    // The user.
    let user: any SimulatedUser
    var ended = false
    var endTime = Double.infinity

    package init(config: ReelConfig, catalog: FeedCatalog, baseURL: URL, screen: Size? = nil, models: SimModels, user: any SimulatedUser) {
        self.config = config
        self.models = models
        self.baseURL = baseURL
        self.user = user
        api = FeedAPI(catalog: catalog, config: config)
        link = SimLink(profile: models.profile)
        coordinator = FeedCoordinator(config: config, parameters: .init(config: config, baseURL: baseURL, hasCache: config.cache.enabled),
                                      screen: screen)
        estimator = BandwidthEstimator(initialBitsPerSecond: config.device.bandwidthEstimateKbps * 1000,
                                       parameters: BandwidthEstimator.Parameters(config.abr.meter))
        constraints = PlaybackConstraints(config)
        buffer = BufferPolicy(config.playback)
        preroll = config.playback.prerollFirstFrame
        prefetchPolicy = PrefetchPolicy(limits: PrefetchPolicy.Limits(config))
        downloadPolicy = DownloadPolicies.make(config)
        schedulerDecides = DownloadPolicies.decides(config)
        maxTransfers = DownloadPolicies.maxTransfers(config)
    }

    /// Runs the session to its end and returns what `reel feed run` would: events, summary
    /// (marked simulated) and warnings.
    package func run() -> SessionOutcome {
        user.begin(self)
        agenda.add(.monitor, at: 0)
        while !ended {
            let linkTime = link.nextEvent()
            let agendaTime = agenda.nextTime
            guard linkTime != nil || agendaTime != nil else { break }
            if let linkTime, linkTime <= (agendaTime ?? .infinity) {
                now = max(now, linkTime)
                for event in link.advance(to: now) { linkReported(event) }
            } else if let (time, item) = agenda.pop() {
                now = max(now, time)
                _ = link.advance(to: now).map(linkReported)
                perform(item)
            }
            drain()
        }
        return finish()
    }

    // MARK: - The agenda

    private func perform(_ item: Agenda) {
        switch item {
        case .input(let input):
            inbox.append(input)
        case .player(let id, let version):
            guard players[id]?.version == version else { return }
            playerTimer(id)
        case .monitor:
            guard coordinator.phase != .closed else { return }
            var buffers: [PlayerID: Int] = [:]
            for id in players.keys.sorted() {
                advancePlayhead(id)
                buffers[id] = Int(((players[id]?.buffered ?? 0) * 1000).rounded())
            }
            inbox.append(.buffers(buffers))
            agenda.add(.monitor, at: now + 0.25)
        case .link(let version):
            guard linkWake?.version == version else { return }
            linkWake = nil
            scheduleLink()
        case .user:
            user.look(self)
        case .call(let body):
            body(self)
        case .end:
            if now >= endTime - 1e-9 { close() }
        }
    }

    /// Hands the coordinator every input due now, in order, and performs what it asks.
    func drain() {
        // Scheduling the link may tell the coordinator something (`linkCarries`): drained too.
        while !inbox.isEmpty {
            while !inbox.isEmpty {
                let input = inbox.removeFirst()
                for action in coordinator.handle(input, at: now) { performAction(action) }
            }
            scheduleLink()
        }
    }

    package func schedule(_ input: FeedInput, at time: Double) {
        agenda.add(.input(input), at: max(time, now))
    }

    /// The session ends at `time` (the earliest such time wins).
    package func endAt(_ time: Double) {
        guard time < endTime else { return }
        endTime = time
        agenda.add(.end, at: max(time, now))
    }

    /// Asks the user to look again at `time`.
    package func lookAgain(at time: Double) {
        agenda.add(.user, at: max(time, now))
    }

    /// Runs `body` at `time`.
    package func after(_ time: Double, _ body: @escaping (FeedSimulation) -> Void) {
        agenda.add(.call(body), at: max(time, now))
    }

    /// Seconds of content the card's player has shown (stalls and pauses excluded), and whether
    /// it reached the video's end.
    package func playedSeconds(card: String) -> (seconds: Double, ended: Bool) {
        guard let id = coordinator.card(card)?.player, players[id] != nil else { return (0, false) }
        advancePlayhead(id)
        let player = players[id]!
        return (player.playhead, player.ended)
    }

    // MARK: - The coordinator's actions

    private func performAction(_ action: FeedAction) {
        switch action {
        case .fetchPage(let cursor):
            schedule(.page(api.page(cursor)), at: now + Double(config.pagination.latencyMs) / 1000)
        case .loadThumbnail(let card, let url):
            thumbnailAsked(card, url: url)
        case .prefetch(let order):
            prefetch(order)
        case .reprioritize(let card, let category, let rank):
            reprioritize(card: card, category: category, rank: rank)
        case .cancelPrefetch(let card):
            cancelPrefetch(card: card)
        case .setGate(let gate):
            // Under a download policy the jobs read manifests and init sections only, and the
            // policy keeps the playing video's segments coming: the gate that holds prefetch for
            // the playing video's buffer does not apply (offline or in the background it stays shut).
            performPrefetch(prefetchPolicy.setGate(schedulerDecides && gate == .urgentOnly ? .open : gate))
        case .setStarving(let starving):
            performPrefetch(prefetchPolicy.setStarving(starving))
        case .mount(let id, let card, let video):
            mount(id, card: card, video: video)
        case .play(let id, let previewLimit):
            recorder.played(id)
            play(id, previewLimit: previewLimit)
        case .pause(let id):
            pause(id)
        case .unmount(let id):
            stop(id)
        case .wake(let time):
            schedule(.wake, at: time)
        case .record(let fact):
            if case .warning(let warning) = fact { recorder.warn(warning) } else if let kind = SessionEvent.Kind(fact) { record(kind) }
        }
    }

    func record(_ kind: SessionEvent.Kind) {
        recorder.record(kind, at: now)
    }

    // MARK: - The cache and the link

    /// Reads a resource for `reader`: from the cache when it holds it (at once), following a
    /// transfer of it already on the link, or over the link (resuming a partial entry). `mark`:
    /// also tell the reader when that many body bytes are there (the first frame's).
    func read(_ key: String, url: String, kind: ResourceKind, bytes: Int, by reader: Reader, mark: Int? = nil) {
        var entry = entries[key] ?? Entry(total: max(0, bytes))
        if entry.complete {
            if reader.isPlayers, entry.prefetched > 0 { entry.read = true }
            entries[key] = entry
            recordRead(reader, url: url, kind: kind, bytes: entry.total, cacheBytes: entry.total, cacheHit: true, duration: 0)
            delivered(reader, key: key, kind: kind)
            return
        }
        entries[key] = entry
        if let id = inFlight[key] {
            transfers[id]?.joiners.append(reader)
            if let mark {
                if link.received(id) + (transfers[id]?.offset ?? 0) >= mark {
                    partlyDelivered(reader, key: key)
                } else {
                    transfers[id]?.marks.append((reader, mark))
                    link.addMark(id, bytes: mark - (transfers[id]?.offset ?? 0))
                }
            }
            return
        }
        nextTransfer += 1
        let id = nextTransfer
        let offset = entry.stored
        var transfer = Transfer(key: key, url: url, kind: kind, total: entry.total, offset: offset, owner: reader, startedAt: now)
        var marks: [Int] = []
        if let mark, mark > offset {
            transfer.marks.append((reader, mark))
            marks.append(mark - offset)
        }
        transfers[id] = transfer
        inFlight[key] = id
        cdnRequests += 1
        link.start(id: id, bytes: entry.total - offset, marks: marks)
        // The part asked for is cached already (the start of a resumed entry).
        if let mark, mark <= offset { partlyDelivered(reader, key: key) }
    }

    /// Stops `reader`'s interest in a resource: a transfer it alone wanted stops (what arrived
    /// stays as a partial entry), one others follow goes on for them.
    func abandon(_ key: String, by reader: Reader) {
        guard let id = inFlight[key], var transfer = transfers[id] else { return }
        transfer.marks.removeAll { $0.reader == reader }
        if transfer.owner == reader {
            if transfer.joiners.isEmpty {
                let (received, sent) = link.cancelWithOvershoot(id)
                cdnBytes += Int64(sent)
                transfers[id] = nil
                inFlight[key] = nil
                entries[key]?.stored = transfer.offset + received
                switch reader {
                case .prefetch, .scheduled:
                    prefetchedBytes += Int64(received)
                    entries[key]?.prefetched += received
                case .player, .thumbnail, .switchPlaylist: break
                }
                scheduled[key] = nil
                recordRead(reader, url: transfer.url, kind: transfer.kind, bytes: transfer.offset + received,
                           cacheBytes: transfer.offset, cacheHit: false, duration: now - transfer.startedAt)
                return
            }
            transfer.owner = transfer.joiners.removeFirst()
        } else {
            transfer.joiners.removeAll { $0 == reader }
        }
        transfers[id] = transfer
    }

    private func linkReported(_ event: SimLink.Event) {
        switch event {
        case .progress(let id, _):
            guard var transfer = transfers[id] else { return }
            let arrived = link.received(id) + transfer.offset
            let due = transfer.marks.filter { $0.bytes <= arrived + 1 }
            transfer.marks.removeAll { $0.bytes <= arrived + 1 }
            transfers[id] = transfer
            for mark in due { partlyDelivered(mark.reader, key: transfer.key) }
        case .completed(let id):
            guard let transfer = transfers.removeValue(forKey: id) else { return }
            inFlight[transfer.key] = nil
            let network = transfer.total - transfer.offset
            cdnBytes += Int64(network)
            var entry = entries[transfer.key] ?? Entry(total: transfer.total)
            entry.stored = entry.total
            if case .prefetch(let request) = transfer.owner {
                prefetchedBytes += Int64(network)
                entry.prefetched += network
                entry.card = requests[request]?.order.card ?? entry.card
            } else if case .scheduled(let card) = transfer.owner {
                prefetchedBytes += Int64(network)
                entry.prefetched += network
                entry.card = card
            }
            let readers = [transfer.owner] + transfer.joiners
            if readers.contains(where: \.isPlayers), entry.prefetched > 0 { entry.read = true }
            entries[transfer.key] = entry
            let duration = now - transfer.startedAt
            if transfer.kind == .segment, network > 0 {
                let flowing = max(1e-6, duration - link.latency(at: transfer.startedAt))
                estimator.add(bytes: Int64(network), elapsed: .nanoseconds(Int64(flowing * 1e9)))
                estimator.addLatency(.nanoseconds(Int64(link.latency(at: transfer.startedAt) * 1e9)))
                lastThroughput = (Int(Double(network) * 8 / flowing), now)
            }
            recordRead(transfer.owner, url: transfer.url, kind: transfer.kind, bytes: transfer.total, cacheBytes: transfer.offset,
                       cacheHit: false, duration: duration)
            for joiner in transfer.joiners {
                recordRead(joiner, url: transfer.url, kind: transfer.kind, bytes: transfer.total, cacheBytes: transfer.total,
                           cacheHit: false, duration: duration)
            }
            let asked = scheduled.removeValue(forKey: transfer.key)
            if let asked { downloadPolicy.downloaded(asked, bytes: network, seconds: duration) }
            for mark in transfer.marks { partlyDelivered(mark.reader, key: transfer.key) }
            for reader in readers { delivered(reader, key: transfer.key, kind: transfer.kind) }
            if asked != nil { scheduleLink() }
        }
    }

    /// A whole resource is there for `reader`.
    private func delivered(_ reader: Reader, key: String, kind: ResourceKind) {
        switch reader {
        case .player(let id): playerRead(id, key: key)
        case .prefetch(let request): prefetchRead(request, key: key)
        case .thumbnail, .scheduled, .switchPlaylist: break
        }
    }

    /// The part of a resource `reader` asked to hear about is there.
    private func partlyDelivered(_ reader: Reader, key: String) {
        if case .player(let id) = reader { playerFirstBytes(id, key: key) }
    }

    /// One resource read by someone, as the engine's data sources report it.
    private func recordRead(_ reader: Reader, url: String, kind: ResourceKind, bytes: Int, cacheBytes: Int, cacheHit: Bool,
                            duration: Double) {
        var metrics = TransferMetrics(url: url, kind: kind)
        metrics.bytes = Int64(bytes)
        metrics.cacheHitBytes = Int64(min(bytes, cacheBytes))
        metrics.cacheHit = cacheHit
        metrics.totalMs = duration * 1000
        let fetch: SessionFetch
        switch reader {
        case .player(let id), .switchPlaylist(let id):
            guard let player = players[id] else { return }
            fetch = SessionFetch(origin: .playback, card: player.card, player: id, metrics: metrics)
        case .prefetch(let request):
            // The prefetcher reports its items when its request ends (FeedSimulation+Prefetch).
            requests[request]?.items.append(metrics)
            return
        case .thumbnail(let card):
            fetch = SessionFetch(origin: .thumbnail, card: card, player: nil, metrics: metrics)
        case .scheduled(let card):
            // Fetched ahead of any player, as prefetch fetches: reported as prefetch's.
            record(.fetch(url: url, bytes: Int64(bytes), cacheBytes: Int64(min(bytes, cacheBytes)), cacheHit: cacheHit,
                          origin: .prefetch, card: CardID(card), durationMs: duration * 1000))
            return
        }
        recorder.fetched(fetch)
        record(.fetch(url: url, bytes: Int64(bytes), cacheBytes: Int64(min(bytes, cacheBytes)), cacheHit: cacheHit,
                      origin: fetch.origin, card: fetch.card.map { CardID($0) }, durationMs: duration * 1000))
    }

    /// The estimate, bits per second.
    var estimate: Int { estimator.bitsPerSecond }

    // MARK: - The end

    /// The session ends: every card unmounts, prefetch stops.
    func close() {
        guard coordinator.phase != .closed else { return }
        inbox.append(.wake)
        drain()
        inbox.append(.close)
        drain()
        for id in requests.keys.sorted() { cancelRequest(id, reason: .cancelled) }
        ended = true
    }

    private func finish() -> SessionOutcome {
        if coordinator.phase != .closed { close() }
        for id in players.keys.sorted() { stop(id) }
        drain()
        var ledger = FeedPrefetch.Ledger()
        ledger.fetchedBytes = prefetchedBytes
        for entry in entries.values where entry.prefetched > 0 {
            if entry.read {
                ledger.usedBytes += Int64(entry.prefetched)
            } else {
                ledger.wastedBytes += Int64(entry.prefetched)
                if let card = entry.card { ledger.unreadBytesByCard[card, default: 0] += Int64(entry.prefetched) }
            }
        }
        var decoders = SessionSummary.Decoders()
        decoders.created = min(peakMounted, config.decoder.poolSize)
        decoders.reused = max(0, mounts - decoders.created)
        let snapshot = BandwidthEstimate(estimateKbps: (estimator.bitsPerSecond + 500) / 1000, samples: estimator.samples,
                                         measured: estimator.isMeasured, initialKbps: (estimator.initialBitsPerSecond + 500) / 1000,
                                         latencyMs: estimator.latency.milliseconds)
        let coordinator = self.coordinator
        var outcome = recorder.outcome(ledger: ledger, decoders: decoders, bandwidth: snapshot,
                                       unread: { coordinator.unreadReason(card: $0) })
        outcome.summary.simulated = true
        outcome.summary.threads = nil
        outcome.summary.cdn.requests = cdnRequests
        outcome.summary.cdn.bytes = cdnBytes
        return outcome
    }
}
