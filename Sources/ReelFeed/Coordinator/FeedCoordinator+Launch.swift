import ReelCore

/// The launch window: a splash or the loading animation shows and the feed is not on screen yet.
/// With `launch.warmFeed` the coordinator asks for the first page at once and, when it arrives,
/// prefetches what the preload policy targets at the top of the feed (the first screens' media,
/// the manifests beyond) at `imminent`; nothing is mounted, nothing is on screen. When the feed
/// shows, the page it already has is laid out at once.
extension FeedCoordinator {
    mutating func launch(at time: Double) {
        guard phase == .launching, warm == nil, parameters.warmFeed, parameters.prefetchEnabled else { return }
        self.time = max(self.time, time)
        var controller = FeedController(config: config, screen: self.controller.layout.viewport)
        guard let cursor = controller.start(at: self.time).pageRequest else { return }
        warm = controller
        warmCursor = cursor
        actions.append(.fetchPage(cursor))
    }

    /// The launch window's page arrived: prefetch the top of the feed.
    mutating func warmed(_ page: FeedPage, at time: Double) {
        guard var controller = warm, page.cursor == warmCursor else { return }
        self.time = max(self.time, time)
        _ = controller.receive(page, at: self.time)
        warm = controller
        warmPage = page
        var policy = PreloadPolicy(parameters: preload.parameters)
        for case .raise(let ref, let target) in policy.update(PreloadPolicy.Scroll(offset: 0), layout: controller.layout, model: controller.model) {
            guard let card = register(ref, in: controller.model), let video = card.video else { continue }
            let (stage, amount) = preloadAmount(for: target.stage)
            cards[card.id]?.prefetchRequested = true
            orderPrefetch(card: card.id, video: video, category: .imminent, rank: target.rank, stage: stage, amount: amount)
        }
    }

    /// The feed shows: the first page it asks for comes from the launch window when it is there
    /// (or on its way), else it is fetched now.
    mutating func show(at time: Double) {
        guard phase == .launching else { return }
        phase = .shown
        self.time = max(self.time, time)
        let output = controller.start(at: self.time)
        var start = output
        start.pageRequest = nil
        handle(start)
        guard let cursor = output.pageRequest else { return }
        if let page = warmPage, page.cursor == cursor {
            handle(controller.receive(page, at: self.time))
        } else if warmCursor != cursor {
            requestPage(cursor)
        }
        warm = nil
        warmPage = nil
    }

    mutating func requestPage(_ cursor: FeedCursor) {
        actions.append(.fetchPage(cursor))
    }
}
