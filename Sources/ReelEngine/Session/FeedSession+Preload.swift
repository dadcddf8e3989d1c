import Foundation
import ReelCore
import ReelMedia
import ReelNet

/// The preload half of prefetching (`preload.enabled`): the scroll goes through the landing
/// predictors, `PreloadPolicy` turns it into target stages, and the session performs what changed
/// (prefetch requests sized in milliseconds of media, cancels, mounts where a fling lands);
/// `PlaybackYield` holds prefetch back while a play starts or a playing video runs low.
extension FeedSession {
    /// Whether the preload policy drives prefetch (else the visibility ranges do).
    var preloads: Bool { preloadEnabled && prefetch.isEnabled && !isLowEnd }

    /// Feeds a scroll sample to the predictors (vertical, and each carousel it moves).
    func predict(_ sample: ScrollSample) {
        guard preloads else { return }
        predictor.sample(sample.y, at: sample.time)
        for (id, x) in sample.x {
            guard let widget = controller.model.index(ofWidget: id) else { continue }
            carouselOffsets[widget] = x
            carouselPredictors[widget, default: ScrollPredictor(parameters: carouselPrediction)].sample(x, at: sample.time)
        }
    }

    /// Re-targets every card near the user and performs what changed.
    func updatePreload() async {
        guard preloads, !closing else { return }
        let layout = controller.layout
        let maxOffset = max(0, layout.contentHeight - layout.viewport.height)
        if stops.count != layout.count {
            stops = layout.frames.map { max(0, $0.y - layout.metrics.widgetSpacing) }
        }
        let now = controllerTime
        let prediction = predictor.predict(maxOffset: maxOffset, stops: stops, now: now)
        var landings: [Int: Double] = [:]
        let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        for (widget, carousel) in carouselPredictors {
            guard let moving = carousel.predict(maxOffset: layout.maxCarouselOffset(widget: widget), now: now),
                  !moving.isStopping, let x = carouselOffsets[widget] else { continue }
            landings[widget] = CarouselPaging.landing(offset: x, velocity: moving.velocity, pitch: pitch,
                                                      maxOffset: layout.maxCarouselOffset(widget: widget),
                                                      threshold: carouselPrediction.stoppingVelocity)
        }
        let scroll = PreloadPolicy.Scroll(offset: controller.visibility.offset, direction: controller.visibility.direction,
                                          carouselOffsets: carouselOffsets, prediction: prediction, carouselLandings: landings)
        let actions = preload.update(scroll, layout: layout, model: controller.model)
        for action in actions { await perform(action) }
    }

    /// What a prefetch request asks for to reach `stage`: the manifests alone, or the first
    /// `preload.mediaMs` of media (a first frame needs that too; the mount does the rest).
    func preloadAmount(for stage: PreloadStage) -> SessionPrefetch.Amount {
        stage == .manifest
            ? SessionPrefetch.Amount(stage: .manifest, prefetch: .segments(0))
            : SessionPrefetch.Amount(stage: .media, prefetch: .media(ms: setup.config.preload.mediaMs))
    }

    private func perform(_ action: PreloadPolicy.Action) async {
        switch action {
        case .raise(let ref, let target):
            guard let card = register(ref), let video = card.video else { return }
            let category: PrefetchCategory = target.urgent ? .imminent : target.stage == .manifest ? .page : .nearby
            let amount = preloadAmount(for: target.stage)
            dropped[card.id] = nil
            if (reached[card.id] ?? .none) < amount.stage {
                cards[card.id]?.prefetchRequested = true
                await prefetch.request(card: card.id, video: video, category: category, rank: target.rank, amount: amount)
            }
            if target.stage == .firstFrame, card.player == nil, !closing {
                preloadMounted.insert(card.id)
                mount(card.id)
            }
        case .release(let ref):
            let id = controller.model.describe(ref).cardID
            guard preloadMounted.remove(id) != nil, let card = cards[id], !card.state.isMounted, !card.playing else { return }
            unmount(id)
        case .drop(let ref, let reason):
            let id = controller.model.describe(ref).cardID
            dropped[id] = reason
            guard cards[id]?.prefetchRequested == true else { return }
            cards[id]?.prefetchRequested = false
            await prefetch.cancel(card: id)
        }
    }

    /// The card reached a stage (its request completed, its player holds a first frame, or a
    /// player of it showed frames): a `preload` event the first time it gets there.
    func reach(_ id: String, _ stage: PreloadStage) {
        guard stage > (reached[id] ?? .none) else { return }
        reached[id] = stage
        emit(.preload(card: CardID(id), stage: stage))
    }

    // MARK: - Yielding

    /// Tells prefetch the gate `PlaybackYield` chose, when it changed.
    func yielded(_ gate: PrefetchGate?) async {
        guard let gate, prefetch.isEnabled else { return }
        await prefetch.setGate(gate)
    }

    // MARK: - Waste

    /// The prefetch waste by why nobody read it: evicted first; then by the card that fetched it,
    /// `sessionEnded` while still wanted, `scrolledPast` once the user has gone past it, else
    /// `cancelled` (the prediction or the range moved away from it).
    func waste(_ ledger: SessionPrefetch.Ledger) -> SessionSummary.Waste {
        var waste = SessionSummary.Waste()
        waste.evicted = ledger.evictedUnreadBytes
        let layout = controller.layout, top = controller.visibility.offset
        let down = controller.visibility.direction == .down
        for (id, bytes) in ledger.unreadBytesByCard.sorted(by: { $0.key < $1.key }) {
            guard let card = cards[id], let number = layout.cardNumber(card.ref) else {
                waste.sessionEnded += bytes
                continue
            }
            let rect = layout.cardRects[number]
            let passed = down ? rect.maxY <= top : rect.minY >= top + layout.viewport.height
            if passed || dropped[id] == .flownPast {
                waste.scrolledPast += bytes
            } else if dropped[id] != nil {
                waste.cancelled += bytes
            } else {
                waste.sessionEnded += bytes
            }
        }
        // Unread bytes no card claims (a request without a card) end with the session.
        let claimed = ledger.unreadBytesByCard.values.reduce(0, +)
        waste.sessionEnded += max(0, ledger.wastedBytes - ledger.evictedUnreadBytes - claimed)
        return waste
    }
}
