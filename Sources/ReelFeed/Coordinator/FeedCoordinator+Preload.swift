import ReelCore

/// The preload half of prefetching (`preload.enabled`): the scroll goes through the landing
/// predictors, `PreloadPolicy` turns it into target stages, and the coordinator asks for what
/// changed (prefetch requests sized in milliseconds of media, cancels, mounts where a fling lands).
extension FeedCoordinator {
    /// Feeds a scroll sample to the predictors (vertical, and each carousel it moves).
    mutating func predict(_ sample: ScrollSample) {
        guard preloads else { return }
        predictor.sample(sample.y, at: sample.time)
        for (id, x) in sample.x {
            guard let widget = controller.model.index(ofWidget: id) else { continue }
            carouselOffsets[widget] = x
            carouselPredictors[widget, default: ScrollPredictor(parameters: carouselPrediction)].sample(x, at: sample.time)
        }
    }

    /// Re-targets every card near the user and asks for what changed.
    mutating func updatePreload() {
        guard preloads, !closing else { return }
        let layout = controller.layout
        let maxOffset = max(0, layout.contentHeight - layout.viewport.height)
        if stops.count != layout.count {
            stops = layout.frames.map { max(0, $0.y - layout.metrics.widgetSpacing) }
        }
        let prediction = predictor.predict(maxOffset: maxOffset, stops: stops, now: time)
        var landings: [Int: Double] = [:]
        let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        for (widget, carousel) in carouselPredictors {
            guard let moving = carousel.predict(maxOffset: layout.maxCarouselOffset(widget: widget), now: time),
                  !moving.isStopping, let x = carouselOffsets[widget] else { continue }
            landings[widget] = CarouselPaging.landing(offset: x, velocity: moving.velocity, pitch: pitch,
                                                      maxOffset: layout.maxCarouselOffset(widget: widget),
                                                      threshold: carouselPrediction.stoppingVelocity)
        }
        let scroll = PreloadPolicy.Scroll(offset: controller.visibility.offset, direction: controller.visibility.direction,
                                          carouselOffsets: carouselOffsets, prediction: prediction, carouselLandings: landings)
        for action in preload.update(scroll, layout: layout, model: controller.model) { perform(action) }
    }

    /// What a prefetch request asks for to reach `stage`: the manifests alone, or the first
    /// `preload.mediaMs` of media (a first frame needs that too; the mount does the rest).
    func preloadAmount(for stage: PreloadStage) -> (stage: PreloadStage, amount: PrefetchAmount) {
        stage == .manifest ? (.manifest, .segments(0)) : (.media, .media(ms: parameters.preloadMediaMs))
    }

    private mutating func perform(_ action: PreloadPolicy.Action) {
        switch action {
        case .raise(let ref, let target):
            guard let card = register(ref), let video = card.video else { return }
            let category: PrefetchCategory = target.urgent ? .imminent : target.stage == .manifest ? .page : .nearby
            let (stage, amount) = preloadAmount(for: target.stage)
            dropped[card.id] = nil
            if (reached[card.id] ?? .none) < stage {
                cards[card.id]?.prefetchRequested = true
                orderPrefetch(card: card.id, video: video, category: category, rank: target.rank, stage: stage, amount: amount)
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
            cancelPrefetch(id)
        }
    }

    /// The card reached a stage (its request completed, its player holds a first frame, or a
    /// player of it showed frames): a `preload` fact the first time it gets there.
    mutating func reach(_ id: String, _ stage: PreloadStage) {
        guard stage > (reached[id] ?? .none) else { return }
        reached[id] = stage
        record(.preload(card: id, stage: stage))
    }
}
