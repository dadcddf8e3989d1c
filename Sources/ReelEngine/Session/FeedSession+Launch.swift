import ReelCore
import ReelNet

/// The launch window (`SessionSetup.launchSeconds`): a splash or the loading animation shows and
/// the feed is not on screen yet. With `launch.warmFeed` the session uses the window to ask for
/// the first page and prefetch the start of its first videos at `imminent`, so the session's
/// first play finds them cached. The feed itself (pagination, visibility, the trace) starts when
/// the window ends.
extension FeedSession {
    /// Asks for the first page as the feed will and, once it has arrived (after the API's
    /// latency), prefetches what the preload policy targets at the top of the feed: the first
    /// screens' media, the manifests beyond. Nothing is mounted: nothing is on screen.
    func warmLaunch() async {
        guard setup.launchSeconds > 0, setup.config.launch.warmFeed, prefetch.isEnabled else { return }
        var warm = FeedController(config: setup.config, screen: setup.screen)
        guard let cursor = warm.start(at: 0).pageRequest else { return }
        try? await Task.sleep(for: .seconds(latency))
        _ = warm.receive(api.page(cursor), at: latency)
        var policy = PreloadPolicy(parameters: .init(setup.config.preload))
        for case .raise(let ref, let target) in policy.update(PreloadPolicy.Scroll(offset: 0), layout: warm.layout, model: warm.model) {
            guard let card = register(ref, in: warm.model), let video = card.video else { continue }
            cards[card.id]?.prefetchRequested = true
            await prefetch.request(card: card.id, video: video, category: .imminent, rank: target.rank,
                                   amount: preloadAmount(for: target.stage))
        }
    }

    /// The launch window is over: the feed shows, and asks for its first page.
    func feedShown() async {
        controllerTime = max(controllerTime, setup.launchSeconds)
        await handle(controller.start(at: controllerTime))
    }
}
