import Foundation
import ReelCore
import ReelNet

/// The feed session's one door to prefetching: what the session asks for (a card's video in a
/// category, a cancel when the card leaves the prefetch range, how much media each playing
/// player holds), the events it hears back, and the CDN-cost ledger. Behind it is ReelNet's
/// `Prefetcher` (one per session, fetching through the session's cache); the session never
/// talks to it any other way. Requests are tracked by card: asking again for a card moves its
/// request up (a `page` request becoming `imminent`), never down, and a cancel drops it.
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
    }

    /// Bytes prefetch fetched, bytes of them playback read, and the rest (at the end of a
    /// session, every prefetched byte playback did not read is waste).
    struct Ledger: Sendable, Equatable {
        var fetchedBytes: Int64 = 0
        var usedBytes: Int64 = 0
        var wastedBytes: Int64 = 0
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
        let byCard = Locked<[String: (id: PrefetchRequestID, category: PrefetchCategory)]>([:])

        /// Drops the card whose request ended.
        func forget(_ id: PrefetchRequestID) {
            byCard.withLock { requests in
                if let card = requests.first(where: { $0.value.id == id })?.key { requests[card] = nil }
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
                    requests.forget(event.id)
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

    /// Asks for the first segments of `video`, shown by `card`, in `category` (skipped when the
    /// category is not in `prefetch.categories`); `rank` orders requests of one category, nearer
    /// the viewport first. A card already asked for moves up, never down.
    func request(card: String, video: URL, category: PrefetchCategory, rank: Int) async {
        guard let prefetcher, let tier = order.firstIndex(of: category) else { return }
        let open = requests.byCard.withLock { $0[card] }
        if let open {
            guard let current = order.firstIndex(of: open.category), tier < current else { return }
            requests.byCard.withLock { $0[card]?.category = category }
            await prefetcher.reprioritize(open.id, category: category, rank: rank)
            return
        }
        let id = await prefetcher.enqueue(PrefetchRequest(videoURL: video, category: category, rank: rank, tag: card))
        requests.byCard.withLock { $0[card] = (id, category) }
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
        return Ledger(fetchedBytes: ledger.fetchedBytes, usedBytes: ledger.usedBytes, wastedBytes: ledger.wastedBytes)
    }
}
