import Foundation
import ReelCore

/// What a card's visibility asks for: a thumbnail when it comes near, prefetch while it is in the
/// prefetch range (when preload does not drive prefetch), a player while it is mounted, and the
/// play policy's opinion.
extension FeedCoordinator {
    mutating func transitioned(_ transition: VisibilityTransition) {
        record(.visibility(card: transition.cardID, from: transition.from, to: transition.to))
        let id = transition.cardID
        register(transition.card)
        cards[id]?.state = transition.to
        guard let card = cards[id] else { return }
        let isLowEnd = parameters.isLowEnd
        if transition.to != .idle && !card.thumbnailRequested { requestThumbnail(id) }
        if transition.to == .prefetch, !isLowEnd, !preloads { requestPrefetch(id) }
        // A low-end device mounts no player for what is on screen, and nothing autoplays there:
        // the cards on screen are what a tap plays, so they are prefetched instead of those ahead.
        if isLowEnd, transition.to.mayPlay, !card.prefetchRequested { requestPrefetch(id) }
        // Low-end devices mount a player only for the card a user plays (see `start`).
        if transition.to.isMounted, card.player == nil, card.video != nil, !isLowEnd, !closing {
            mount(id)
        }
        if let event = PlayEvent(transition), !(isBackground && event.kind == .ready) {
            perform(policy.handle(event))
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
            cancelPrefetch(id)
        }
    }

    /// Knows the card at `ref` from now on (its ids, type and video URL).
    @discardableResult
    mutating func register(_ ref: CardRef, in model: FeedModel? = nil) -> CoordinatedCard? {
        let model = model ?? controller.model
        guard model.items.indices.contains(ref.widget) else { return nil }
        let (id, widgetID, type) = model.describe(ref)
        if cards[id] != nil {
            cards[id]?.ref = ref
            return cards[id]
        }
        let video = model.video(of: ref).flatMap { resolve($0.url) }
        let card = CoordinatedCard(ref: ref, id: id, widgetID: widgetID, type: type, video: video)
        cards[id] = card
        return card
    }

    /// `text` (a catalog or merch URL) as an absolute URL: relative ones against the base URL.
    func resolve(_ text: String) -> URL? {
        URL(string: text, relativeTo: parameters.baseURL)?.absoluteURL
    }

    /// A page arrived: its videos not yet near and within `prefetch.pageScreens` screens below
    /// the viewport are asked for in the `page` category, nearest first (entering the prefetch
    /// range later moves them up to `imminent` or `nearby`). Not on a low-end device, where only
    /// the cards on screen are prefetched. With preload, the preload policy decides instead.
    mutating func pageLoaded(_ widgets: [Int]) {
        if preloads { return updatePreload() }
        guard parameters.prefetchEnabled, !parameters.isLowEnd else { return }
        let layout = controller.layout, height = layout.viewport.height
        let bottom = controller.visibility.offset + height, reach = parameters.pageScreens * height
        for widget in widgets {
            for slot in controller.model.items[widget].cards.indices {
                let ref = CardRef(widget: widget, slot: slot)
                guard let card = register(ref), let video = card.video, card.state == .idle, !card.prefetchRequested,
                      let number = layout.cardNumber(ref) else { continue }
                let distance = max(0, layout.cardRects[number].minY - bottom)
                guard distance <= reach else { continue }
                cards[card.id]?.prefetchRequested = true
                orderPrefetch(card: card.id, video: video, category: .page, rank: Int(distance.rounded()))
            }
        }
    }

    mutating func tapped(_ cardID: String, _ ref: CardRef?) {
        guard let ref, let card = register(ref), let playCard = card.playCard else { return }
        perform(policy.handle(PlayEvent(time: time, kind: .userPlay, card: playCard)))
    }

    /// Asks the play policy about a known card.
    mutating func tellPolicy(_ kind: PlayEvent.Kind, _ id: String) {
        guard !closing, let playCard = cards[id]?.playCard else { return }
        perform(policy.handle(PlayEvent(time: time, kind: kind, card: playCard)))
    }

    // MARK: - Players

    /// Gives the card a player and prepares it (opens the input, takes a decoder, buffers).
    mutating func mount(_ id: String) {
        guard let card = cards[id], let video = card.video, card.player == nil else { return }
        let player = newPlayer(for: id)
        cards[id]?.player = player
        record(.mount(card: id))
        actions.append(.mount(player, card: id, video: video))
    }

    mutating func newPlayer(for card: String) -> PlayerID {
        nextPlayer += 1
        let player = PlayerID(rawValue: nextPlayer)
        players[player] = PlayerRecord(card: card)
        return player
    }

    /// Takes the card's player away: it stops (input closed, decoder back to the pool) on its own
    /// time and reports `stopped` when done.
    mutating func unmount(_ id: String) {
        guard let player = cards[id]?.player else { return }
        cards[id]?.player = nil
        cards[id]?.playing = false
        preloadMounted.remove(id)
        stoppedPlaying(player)
        record(.unmount(card: id))
        actions.append(.unmount(player))
    }

    // MARK: - Thumbnails

    /// Loads the card's thumbnail (a merch card's image) through the cache, once.
    mutating func requestThumbnail(_ id: String) {
        cards[id]?.thumbnailRequested = true
        guard let card = cards[id], let url = thumbnailURL(card) else { return }
        actions.append(.loadThumbnail(card: id, url: url))
    }

    /// The thumbnail of a video card sized to its laid-out rect in pixels, or a merch card's image.
    func thumbnailURL(_ card: CoordinatedCard) -> URL? {
        let model = controller.model, layout = controller.layout
        guard model.items.indices.contains(card.ref.widget) else { return nil }
        if case .merch(let merch)? = model.items[card.ref.widget].content { return resolve(merch.imageURL) }
        guard let video = model.video(of: card.ref), let number = layout.cardNumber(card.ref) else { return nil }
        let rect = layout.cardRects[number], scale = parameters.scale
        let text = video.thumbnailURL(width: Int((rect.width * scale).rounded()), height: Int((rect.height * scale).rounded()),
                                      quality: parameters.thumbnailQuality)
        return text.isEmpty ? nil : resolve(text)
    }

    // MARK: - Prefetch

    /// Asks for a card entering the prefetch range (on a low-end device, coming on screen):
    /// `imminent` when it starts within a screen past the viewport's leading edge, `nearby`
    /// farther; ranked by distance, 0 on screen.
    mutating func requestPrefetch(_ id: String) {
        guard let card = cards[id], let video = card.video, parameters.prefetchEnabled else { return }
        let layout = controller.layout
        guard let number = layout.cardNumber(card.ref) else { return }
        let rect = layout.cardRects[number]
        let top = controller.visibility.offset, height = layout.viewport.height
        let distance = controller.visibility.direction == .down ? rect.minY - (top + height) : top - rect.maxY
        let category: PrefetchCategory = distance <= height ? .imminent : .nearby
        cards[id]?.prefetchRequested = true
        orderPrefetch(card: id, video: video, category: category, rank: Int(max(0, distance).rounded()))
    }

    /// Asks for `amount` of the card's video (nil: the category's first segments) in `category`
    /// (skipped when the category is not in `prefetch.categories`). A card already asked for moves
    /// up, never down; asked for a higher stage, its request is replaced (what it fetched stays).
    mutating func orderPrefetch(card: String, video: URL, category: PrefetchCategory, rank: Int,
                                stage: PreloadStage = .media, amount: PrefetchAmount? = nil) {
        guard parameters.prefetchEnabled, let tier = parameters.categories.firstIndex(of: category) else { return }
        if let open = openPrefetch[card], stage <= open.stage {
            guard let current = parameters.categories.firstIndex(of: open.category), tier < current else { return }
            openPrefetch[card]?.category = category
            actions.append(.reprioritize(card: card, category: category, rank: rank))
            return
        }
        openPrefetch[card] = (category, stage)
        actions.append(.prefetch(PrefetchOrder(card: card, video: video, category: category, rank: rank, stage: stage, amount: amount)))
    }

    /// Drops the card's open request, if any.
    mutating func cancelPrefetch(_ id: String) {
        guard openPrefetch.removeValue(forKey: id) != nil else { return }
        actions.append(.cancelPrefetch(card: id))
    }
}
