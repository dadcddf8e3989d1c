import Foundation
import ReelCore
import ReelNet

/// The feed session's one door to prefetching: what the session asks for (a card's video in a
/// category, a cancel when the card leaves the prefetch range, how much media each playing
/// player holds), the events it hears back, and the CDN-cost ledger. Behind it is ReelNet's
/// `Prefetcher` (one per session, fetching through the session's cache); the session never
/// talks to it any other way. Requests are tracked by card: asking again for a card moves its
/// request up (a `page` request becoming `imminent`), never down; asking for more of it (the
/// media after the manifests) replaces it; a cancel drops it.
final class SessionPrefetch: Sendable {
    /// What the prefetcher reports, for the session's events.
    enum Event: Sendable {
        case queued(url: String, card: String?, category: PrefetchCategory)
        case started(url: String)
        case done(url: String, bytes: Int64)
        case cancelled(url: String, bytes: Int64)
        /// What one request fetched or found cached, item by item (manifests included).
        case fetched(card: String?, items: [PrefetchOutcome.Item])
        /// A request dropped after its retries (or refused).
        case failed(url: String, card: String?, message: String)
        /// The card's request completed: it reached `stage`.
        case reached(card: String, stage: PreloadStage)
    }

    /// Bytes prefetch fetched, bytes of them playback read, and the rest (at the end of a
    /// session, every prefetched byte playback did not read is waste).
    struct Ledger: Sendable, Equatable {
        var fetchedBytes: Int64 = 0
        var usedBytes: Int64 = 0
        var wastedBytes: Int64 = 0
        /// Of the waste, bytes evicted before anyone read them.
        var evictedUnreadBytes: Int64 = 0
        /// Of the waste, bytes still cached and unread, by the card whose request fetched them.
        var unreadBytesByCard: [String: Int64] = [:]
    }

    /// What one request asks for: the stage it brings the card to, and how much that is.
    struct Amount: Sendable, Equatable {
        var stage: PreloadStage
        /// nil: the category's default segment count.
        var prefetch: PrefetchAmount?

        /// The visibility-driven default: the category's segments.
        static let categoryDefault = Amount(stage: .media, prefetch: nil)
    }

    /// Whether requests are acted on (`prefetch.enabled`, and a cache to prefetch into).
    let isEnabled: Bool
    private let prefetcher: Prefetcher?
    private let cache: Cache?
    private let order: [PrefetchCategory]
    private let forwarding: Task<Void, Never>?
    private let requests = Requests()

    /// The open request of each card, for moving it up and cancelling it.
    private final class Requests: Sendable {
        let byCard = Locked<[String: (id: PrefetchRequestID, category: PrefetchCategory, stage: PreloadStage)]>([:])

        /// Drops the card whose request ended; returns the card and the stage it asked for.
        @discardableResult
        func forget(_ id: PrefetchRequestID) -> (card: String, stage: PreloadStage)? {
            byCard.withLock { requests in
                guard let (card, open) = requests.first(where: { $0.value.id == id }) else { return nil }
                requests[card] = nil
                return (card, open.stage)
            }
        }
    }

    /// A door for `config`, prefetching into `factory`'s cache; `onEvent` hears the prefetcher.
    init(config: ReelConfig, factory: CacheDataSourceFactory?, onEvent: @escaping @Sendable (Event) -> Void) {
        order = PrefetchCategory.order(config)
        cache = factory?.cache
        guard config.prefetch.enabled, let factory else {
            isEnabled = false
            prefetcher = nil
            forwarding = nil
            return
        }
        isEnabled = true
        // The session's players decode video only: audio renditions would be fetched for nothing.
        let prefetcher = Prefetcher(factory: factory, config: config, includeAudio: false)
        self.prefetcher = prefetcher
        let requests = self.requests
        forwarding = Task {
            for await event in prefetcher.events {
                let url = event.videoURL.absoluteString
                switch event.kind {
                case .queued: onEvent(.queued(url: url, card: event.tag, category: event.category))
                case .started: onEvent(.started(url: url))
                case .done(let bytes, let outcome):
                    onEvent(.fetched(card: event.tag, items: outcome.manifests + outcome.items))
                    onEvent(.done(url: url, bytes: bytes))
                    if let (card, stage) = requests.forget(event.id) { onEvent(.reached(card: card, stage: stage)) }
                case .cancelled(let bytes):
                    onEvent(.cancelled(url: url, bytes: bytes))
                    requests.forget(event.id)
                case .suspended:
                    break
                case .failed(let error, _, let retrying):
                    if !retrying {
                        onEvent(.failed(url: url, card: event.tag, message: error.description))
                        requests.forget(event.id)
                    }
                }
            }
        }
    }

    /// Asks for `amount` of `video` (by default the category's first segments), shown by `card`,
    /// in `category` (skipped when the category is not in `prefetch.categories`); `rank` orders
    /// requests of one category, nearer the viewport first. A card already asked for moves up,
    /// never down; asked for a higher stage, its request is replaced (what it fetched stays cached).
    func request(card: String, video: URL, category: PrefetchCategory, rank: Int, amount: Amount = .categoryDefault) async {
        guard let prefetcher, let tier = order.firstIndex(of: category) else { return }
        let open = requests.byCard.withLock { $0[card] }
        if let open {
            if amount.stage > open.stage {
                requests.byCard.withLock { _ = $0.removeValue(forKey: card) }
                await prefetcher.cancel(open.id)
            } else {
                guard let current = order.firstIndex(of: open.category), tier < current else { return }
                requests.byCard.withLock { $0[card]?.category = category }
                await prefetcher.reprioritize(open.id, category: category, rank: rank)
                return
            }
        }
        var request = PrefetchRequest(videoURL: video, category: category, rank: rank, tag: card)
        switch amount.prefetch {
        case .segments(let count)?: request.segments = count
        case .media(let ms)?: request.mediaMs = ms
        case nil: break
        }
        let id = await prefetcher.enqueue(request)
        requests.byCard.withLock { $0[card] = (id, category, amount.stage) }
    }

    /// What prefetch may run while something plays (`PlaybackYield`).
    func setGate(_ gate: PrefetchGate) async {
        await prefetcher?.setGate(gate)
    }

    /// The card left the prefetch range: drop what is queued or running for it.
    func cancel(card: String) async {
        guard let prefetcher, let open = requests.byCard.withLock({ $0.removeValue(forKey: card) }) else { return }
        await prefetcher.cancel(open.id)
    }

    /// How much media a playing player (by instance) holds, nil once it stopped playing:
    /// prefetch yields while a playing video runs low (`prefetch.pauseWhileStarving`).
    func reportBuffer(player: Int, bufferedMs: Int?) async {
        await prefetcher?.reportBuffer(player: String(player), bufferedMs: bufferedMs)
    }

    /// Stops prefetching (cancelling what runs, waiting for it) and returns the ledger.
    func finish() async -> Ledger {
        guard let prefetcher else { return Ledger() }
        await prefetcher.shutdown()
        await forwarding?.value
        // The ledger counts bytes once the cache sealed them.
        if let cache { _ = try? await BlockingPool.shared.run { cache.waitForPendingWrites() } }
        let ledger = await prefetcher.ledger()
        return Ledger(fetchedBytes: ledger.fetchedBytes, usedBytes: ledger.usedBytes, wastedBytes: ledger.wastedBytes,
                      evictedUnreadBytes: ledger.evictedUnreadBytes, unreadBytesByCard: ledger.unreadBytesByTag)
    }
}
