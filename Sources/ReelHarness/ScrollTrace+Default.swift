import ReelCore
import ReelFeed

extension ScrollTrace {
    /// `reel feed run`'s and `reel demo`'s trace when none is given: the first 29 seconds of the
    /// bundled `traces/mixed.jsonl` (reading, carousel swipes, a fling and back): long enough for
    /// a dozen plays, short enough for the demo's two runs to take about a minute.
    package static let defaultFile = "traces/mixed.jsonl"
    package static let defaultSeconds = 29.0

    /// A trace generated for `pattern` over the feed `catalog` lays out under `config` on
    /// `screen`: what `feed run --pattern` and a sweep's pattern cells run (the same inputs give
    /// the same trace).
    package static func generated(_ pattern: TracePattern, seconds: Double, seed: UInt64, catalog: FeedCatalog,
                                 config: ReelConfig, screen: Size) -> ScrollTrace {
        let api = FeedAPI(catalog: catalog, config: config)
        let build = FeedBuild(api: api, config: config, screen: screen, pages: api.isEndless ? max(2, Int(seconds / 2)) : nil)
        return TraceGenerator.generate(pattern, seconds: seconds, build: build, seed: seed)
    }
}
