import Foundation
import ReelCore
import ReelMedia
import ReelNet

/// What a card's visibility asks of the session: a thumbnail when it comes near, prefetch while
/// it is in the prefetch range, a player while it is mounted, and the arbiter's opinion.
extension FeedSession {
    func transitioned(_ transition: VisibilityTransition) async {
        emit(.visibility(card: CardID(transition.cardID), from: transition.from, to: transition.to))
        let id = transition.cardID
        register(transition.card)
        cards[id]?.state = transition.to
        guard let card = cards[id] else { return }
        if transition.to != .idle && !card.thumbnailRequested { requestThumbnail(id) }
        if transition.to == .prefetch, !isLowEnd, !preloads { await requestPrefetch(id) }
        // A low-end device mounts no player for what is on screen, and nothing autoplays there:
        // the cards on screen are what a tap plays, so they are prefetched instead of those ahead.
        if isLowEnd, transition.to.mayPlay, !card.prefetchRequested { await requestPrefetch(id) }
        // Low-end devices mount a player only for the card a user plays (see `grant`).
        if transition.to.isMounted, card.player == nil, card.video != nil, !isLowEnd, !closing {
            mount(id)
        }
        if let event = PlayEvent(transition) {
            await perform(await arbiter.handle(event))
        }
        if !transition.to.isMounted, cards[id]?.player != nil {
            unmount(id)
        }
        // Out of the prefetch and keep ranges (on a low-end device, off the screen): what prefetch
        // still does for the card is waste; its bytes stay as a partial entry.
        // With preload, the policy says what is dropped (a card a fling lands on is idle here).
        let gone = transition.to == .idle || (isLowEnd && transition.from.mayPlay && !transition.to.mayPlay)
        if gone, !preloads, cards[id]?.prefetchRequested == true {
            cards[id]?.prefetchRequested = false
            await prefetch.cancel(card: id)
        }
    }

    /// Knows the card at `ref` from now on (its ids, type and video URL).
    @discardableResult
    func register(_ ref: CardRef, in model: FeedModel? = nil) -> SessionCard? {
        let model = model ?? controller.model
        guard model.items.indices.contains(ref.widget) else { return nil }
        let (id, widgetID, type) = model.describe(ref)
        if cards[id] != nil {
            cards[id]?.ref = ref
            return cards[id]
        }
        let video = model.video(of: ref).flatMap { setup.resolve($0.url) }
        let card = SessionCard(ref: ref, id: id, widgetID: widgetID, type: type, video: video)
        cards[id] = card
        return card
    }

    /// A page arrived: its videos not yet near and within `prefetch.pageScreens` screens below
    /// the viewport are asked for in the `page` category, nearest first (entering the prefetch
    /// range later moves them up to `imminent` or `nearby`). Not on a low-end device, where only
    /// the cards on screen are prefetched.
    func pageLoaded(_ widgets: [Int]) async {
        if preloads { return await updatePreload() }
        guard prefetch.isEnabled, !isLowEnd else { return }
        let layout = controller.layout, height = layout.viewport.height
        let bottom = controller.visibility.offset + height, reach = setup.config.prefetch.pageScreens * height
        for widget in widgets {
            for slot in controller.model.items[widget].cards.indices {
                let ref = CardRef(widget: widget, slot: slot)
                guard let card = register(ref), let video = card.video, card.state == .idle, !card.prefetchRequested,
                      let number = layout.cardNumber(ref) else { continue }
                let distance = max(0, layout.cardRects[number].minY - bottom)
                guard distance <= reach else { continue }
                cards[card.id]?.prefetchRequested = true
                await prefetch.request(card: card.id, video: video, category: .page, rank: Int(distance.rounded()))
            }
        }
    }

    func tapped(_ cardID: String, _ ref: CardRef?) async {
        guard let ref, let card = register(ref), let playCard = card.playCard else { return }
        await perform(await arbiter.handle(PlayEvent(time: controllerTime, kind: .userPlay, card: playCard)))
    }

    // MARK: - Players

    /// Attaches a player to the card and prepares it (opens the input, takes a decoder, buffers).
    func mount(_ id: String) {
        guard let card = cards[id], let video = card.video, card.player == nil else { return }
        nextPlayer += 1
        let instance = nextPlayer
        let sink = self.sink
        let factory = ReportingDataSourceFactory(base: setup.factory, origin: .playback, card: id, player: instance) {
            sink.yield(.fetch($0))
        }
        let player = Player(card: id, input: video, factory: factory, pool: pool, options: playerOptions)
        players[instance] = SessionPlayer(card: id, player: player)
        cards[id]?.player = instance
        emit(.mount(card: CardID(id)))
        tasks.append(Task {
            for await event in player.events { sink.yield(.player(instance, event)) }
        })
        player.prepare()
    }

    /// Detaches the card's player: it stops (input closed, decoder back to the pool) on its own
    /// time and reports when done.
    func unmount(_ id: String) {
        guard let instance = cards[id]?.player, let player = players[instance]?.player else { return }
        cards[id]?.player = nil
        cards[id]?.playing = false
        preloadMounted.remove(id)
        let gate = yield.playStopped(instance)
        if let gate { tasks.append(Task { await self.yielded(gate) }) }
        emit(.unmount(card: CardID(id)))
        let sink = self.sink
        tasks.append(Task {
            let report = await player.stop()
            sink.yield(.stopped(instance, report))
        })
    }

    // MARK: - Thumbnails

    /// Fetches the card's thumbnail (a merch card's image) through the cache, once.
    func requestThumbnail(_ id: String) {
        cards[id]?.thumbnailRequested = true
        guard let card = cards[id], let url = thumbnailURL(card) else { return }
        let sink = self.sink
        let factory = ReportingDataSourceFactory(base: setup.factory, origin: .thumbnail, card: id, player: nil) {
            sink.yield(.fetch($0))
        }
        tasks.append(Task {
            do {
                _ = try await BlockingPool.shared.run {
                    try factory.fetch(DataSpec(url: url, kind: .image), limit: 16 << 20)
                }
            } catch {
                let reason = (error as? ReelError)?.description ?? "\(error)"
                sink.yield(.failure(card: id, message: "thumbnail '\(url.absoluteString)': \(reason)"))
            }
        })
    }

    /// The thumbnail of a video card sized to its laid-out rect in pixels, or a merch card's image.
    func thumbnailURL(_ card: SessionCard) -> URL? {
        let model = controller.model, layout = controller.layout
        guard model.items.indices.contains(card.ref.widget) else { return nil }
        if case .merch(let merch)? = model.items[card.ref.widget].content { return setup.resolve(merch.imageURL) }
        guard let video = model.video(of: card.ref), let number = layout.cardNumber(card.ref) else { return nil }
        let rect = layout.cardRects[number], scale = setup.config.device.scale
        let text = video.thumbnailURL(width: Int((rect.width * scale).rounded()), height: Int((rect.height * scale).rounded()),
                                      quality: setup.config.feed.thumbnailQuality)
        return text.isEmpty ? nil : setup.resolve(text)
    }

    // MARK: - Prefetch

    /// Asks the prefetcher for a card entering the prefetch range (on a low-end device, coming on
    /// screen): `imminent` when it starts within a screen past the viewport's leading edge,
    /// `nearby` farther; ranked by distance, 0 on screen.
    func requestPrefetch(_ id: String) async {
        guard let card = cards[id], let video = card.video, prefetch.isEnabled else { return }
        let layout = controller.layout
        guard let number = layout.cardNumber(card.ref) else { return }
        let rect = layout.cardRects[number]
        let top = controller.visibility.offset, height = layout.viewport.height
        let distance = controller.visibility.direction == .down ? rect.minY - (top + height) : top - rect.maxY
        let category: PrefetchCategory = distance <= height ? .imminent : .nearby
        cards[id]?.prefetchRequested = true
        await prefetch.request(card: id, video: video, category: category, rank: Int(max(0, distance).rounded()))
    }

    func prefetchReported(_ event: SessionPrefetch.Event) {
        switch event {
        case .queued(let url, let card, let category): emit(.prefetchQueued(url: url, card: card.map { CardID($0) }, category: category))
        case .started(let url): emit(.prefetchStarted(url: url))
        case .done(let url, let bytes): emit(.prefetchDone(url: url, bytes: bytes))
        case .cancelled(let url, let bytes): emit(.prefetchCancelled(url: url, bytes: bytes))
        case .fetched(let card, let items):
            for item in items {
                emit(.fetch(url: item.url, bytes: item.bytes, cacheBytes: item.cacheBytes, cacheHit: item.alreadyCached,
                            origin: .prefetch, card: card.map { CardID($0) }))
            }
        case .failed(let url, let card, let message):
            emit(.error(card: card.map { CardID($0) }, message: "prefetch of '\(url)' failed: \(message)"))
        case .reached(let card, let stage):
            reach(card, stage)
        }
    }
}
