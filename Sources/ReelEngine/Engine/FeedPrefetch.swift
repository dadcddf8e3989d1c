import Foundation
import ReelCore
import ReelFeed
import ReelNet

/// Performs the coordinator's prefetch orders on ReelNet's `Prefetcher` (one per session,
/// fetching through the session's cache): a request per card, moved up, replaced or cancelled as
/// told, the gate and the starving flag. It hears the prefetcher's events and hands each on with,
/// when it ends the card's current request, the input that tells the coordinator so.
package final class FeedPrefetch: Sendable {
    /// Bytes prefetch fetched, bytes of them playback read, and the rest (at the end of a
    /// session, every prefetched byte playback did not read is waste).
    package struct Ledger: Sendable, Equatable {
        package var fetchedBytes: Int64 = 0
        package var usedBytes: Int64 = 0
        package var wastedBytes: Int64 = 0
        /// Of the waste, bytes evicted before anyone read them.
        package var evictedUnreadBytes: Int64 = 0
        /// Of the waste, bytes still cached and unread, by the card whose request fetched them.
        package var unreadBytesByCard: [String: Int64] = [:]
        package init() {}
        package init(fetchedBytes: Int64, usedBytes: Int64, wastedBytes: Int64, evictedUnreadBytes: Int64, unreadBytesByCard: [String: Int64]) {
            self.fetchedBytes = fetchedBytes
            self.usedBytes = usedBytes
            self.wastedBytes = wastedBytes
            self.evictedUnreadBytes = evictedUnreadBytes
            self.unreadBytesByCard = unreadBytesByCard
        }
    }

    private let prefetcher: Prefetcher
    private let cache: Cache
    private let forwarding: Task<Void, Never>
    private let requests: Requests

    /// Each card's current request, and the ends of requests heard before their id was known.
    private final class Requests: Sendable {
        private struct State {
            var byCard: [String: PrefetchRequestID] = [:]
            var early: [PrefetchRequestID: FeedInput] = [:]
            /// Requests replaced or cancelled by order: their ends say nothing to the coordinator.
            var dropped: Set<PrefetchRequestID> = []
        }
        private let state = Locked(State())

        /// The request ended: the coordinator's input when it was its card's current one.
        func ended(_ event: PrefetchEvent, completed: Bool) -> FeedInput? {
            guard let card = event.tag else { return nil }
            let input: FeedInput = completed ? .prefetched(card: card) : .prefetchEnded(card: card)
            return state.withLock { state in
                if state.dropped.remove(event.id) != nil { return nil }
                if state.byCard[card] == event.id {
                    state.byCard[card] = nil
                    return input
                }
                if !state.byCard.values.contains(event.id) { state.early[event.id] = input }
                return nil
            }
        }

        /// The card's new request; the input of its end if that was heard already.
        func started(_ id: PrefetchRequestID, card: String) -> FeedInput? {
            state.withLock { state in
                if let input = state.early.removeValue(forKey: id) { return input }
                state.byCard[card] = id
                return nil
            }
        }

        func take(_ card: String) -> PrefetchRequestID? {
            state.withLock { state in
                guard let id = state.byCard.removeValue(forKey: card) else { return nil }
                state.dropped.insert(id)
                return id
            }
        }
        func id(of card: String) -> PrefetchRequestID? { state.withLock { $0.byCard[card] } }
    }

    /// Prefetch for `config` into `factory`'s cache; `onEvent` hears every prefetcher event and,
    /// when the event ends a card's current request, the coordinator's input.
    /// `desk`, when given, seats each job (by its card) at the session's download policy.
    package init(config: ReelConfig, factory: CacheDataSourceFactory, desk: LinkDesk? = nil,
                 onEvent: @escaping @Sendable (PrefetchEvent, FeedInput?) -> Void) {
        cache = factory.cache
        // The session's players decode video only: audio renditions would be fetched for nothing.
        var seats: (@Sendable (String?) -> (any SegmentTurns)?)?
        if let desk {
            seats = { tag -> (any SegmentTurns)? in desk.seat(card: tag ?? "", prefetch: true) }
        }
        let prefetcher = Prefetcher(factory: factory, config: config, includeAudio: false, seats: seats)
        self.prefetcher = prefetcher
        let requests = Requests()
        self.requests = requests
        forwarding = Task {
            for await event in prefetcher.events {
                switch event.kind {
                case .done: onEvent(event, requests.ended(event, completed: true))
                case .cancelled: onEvent(event, requests.ended(event, completed: false))
                case .failed(_, _, let retrying): onEvent(event, retrying ? nil : requests.ended(event, completed: false))
                case .queued, .started, .suspended: onEvent(event, nil)
                }
            }
        }
    }

    /// Performs one order: the card's open request (if any) is replaced. Returns the input of
    /// the request's end when the prefetcher already reported it.
    func perform(_ order: PrefetchOrder) async -> FeedInput? {
        if let open = requests.take(order.card) { await prefetcher.cancel(open) }
        var request = PrefetchRequest(videoURL: order.video, category: order.category, rank: order.rank, tag: order.card)
        switch order.amount {
        case .segments(let count)?: request.segments = count
        case .media(let ms)?: request.mediaMs = ms
        case nil: break
        }
        let id = await prefetcher.enqueue(request)
        return requests.started(id, card: order.card)
    }

    func reprioritize(card: String, category: PrefetchCategory, rank: Int) async {
        guard let id = requests.id(of: card) else { return }
        await prefetcher.reprioritize(id, category: category, rank: rank)
    }

    func cancel(card: String) async {
        guard let id = requests.take(card) else { return }
        await prefetcher.cancel(id)
    }

    func setGate(_ gate: PrefetchGate) async { await prefetcher.setGate(gate) }

    func setStarving(_ starving: Bool) async { await prefetcher.setPlaybackStarving(starving) }

    /// The ledger so far.
    func ledger() async -> Ledger {
        Ledger(await prefetcher.ledger())
    }

    /// Stops prefetching (cancelling what runs, waiting for it) and returns the ledger.
    func finish() async -> Ledger {
        await prefetcher.shutdown()
        await forwarding.value
        // The ledger counts bytes once the cache sealed them.
        let cache = self.cache
        _ = try? await BlockingPool.shared.run { cache.waitForPendingWrites() }
        return await ledger()
    }
}

extension FeedPrefetch.Ledger {
    init(_ ledger: PrefetchLedger) {
        self.init(fetchedBytes: ledger.fetchedBytes, usedBytes: ledger.usedBytes, wastedBytes: ledger.wastedBytes,
                  evictedUnreadBytes: ledger.evictedUnreadBytes, unreadBytesByCard: ledger.unreadBytesByTag)
    }
}
