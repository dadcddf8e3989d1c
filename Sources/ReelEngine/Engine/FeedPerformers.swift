import Foundation
import ReelCore
import ReelFeed
import ReelManifest
import ReelMedia
import ReelNet

/// A video player as the engine drives it: `Player` in an app, a fake in the engine's tests.
package protocol FeedPlayer: Sendable {
    /// Everything it reports, in order; finishes after `.stopped`.
    var events: AsyncStream<PlayerEvent> { get }
    func prepare()
    func play(previewLimit: Duration?)
    func pause()
    /// Stops (input closed, decoder back to the pool) and reports what it did.
    func stop() async -> PlayerReport
    /// Media it holds ahead of the screen.
    var buffered: Duration { get }
    /// The picture it presented last, when it keeps pictures for a screen.
    var picture: Picture? { get }
    /// Its sound decoded for a speaker, when it decodes sound.
    var sound: PlayerSound? { get }
}

extension FeedPlayer {
    package var picture: Picture? { nil }
    package var sound: PlayerSound? { nil }
}

extension Player: FeedPlayer {
    package var buffered: Duration { status.buffered }
}

/// Whoever performs a session's actions besides the engine itself: makes the players, loads
/// thumbnails, prefetches. `PlaybackPerformers` is the real one; tests inject fakes here.
package protocol FeedPerformers: Sendable {
    /// A player for `card`'s `video`, decoding its sound too with `sound` (when the session
    /// decodes sound); `report` hears every resource it reads.
    func makePlayer(_ id: PlayerID, card: String, video: URL, sound: Bool, report: @escaping @Sendable (SessionFetch) -> Void)
        -> any FeedPlayer
    /// Fetches a thumbnail through the cache; `report` hears the read. Returns it decoded when
    /// the session keeps pictures for a screen, nil otherwise.
    func loadThumbnail(card: String, url: URL, report: @escaping @Sendable (SessionFetch) -> Void) async throws -> Picture?
    /// Prefetch for the session, nil without a cache to fill (or with prefetch off).
    func makePrefetch(onEvent: @escaping @Sendable (PrefetchEvent, FeedInput?) -> Void) -> FeedPrefetch?
    /// The decoder pool's counters.
    func decoders() async -> SessionSummary.Decoders
    /// The bandwidth meter the session's transfers feed, if any.
    var bandwidthMeter: BandwidthMeter? { get }
    /// Whether there is a cache to prefetch into.
    var hasCache: Bool { get }
    /// The feed's preload order changed (the cards the user may reach, nearest first, and
    /// whether each is about to be seen): a download policy orders the link by it.
    func preloadOrder(_ cards: [(card: String, urgent: Bool)])
    /// The cards the play rules granted changed (a play counts from its grant, before its first
    /// frame), each with the media second where its play stops by itself (a preview's limit):
    /// a download policy serves them as playing, and nothing past that second.
    func playingCards(_ cards: [String: Double?])
    /// `report` hears how many playing cards the link carries whenever the download policy's
    /// answer changes (`DownloadPolicy.carries`; nil: all of them).
    func onLinkCarries(_ report: @escaping @Sendable (Int?) -> Void)
    /// The session ends: what still waits for the link's turn (a thumbnail) is not fetched.
    func linkClosing()
}

extension FeedPerformers {
    package func preloadOrder(_ cards: [(card: String, urgent: Bool)]) {}
    package func onLinkCarries(_ report: @escaping @Sendable (Int?) -> Void) {}
    package func linkClosing() {}
    package func playingCards(_ cards: [String: Double?]) {}
}

/// The real performers: players with decoders from one `DecoderPool`, every read through the
/// session's data sources (cache-backed normally), prefetch into that cache. With `pictures`,
/// players keep the picture they presented last and thumbnails come back decoded, for a screen;
/// with `sound`, the players asked to decode their sound to it.
package struct PlaybackPerformers: FeedPerformers {
    let config: ReelConfig
    let factory: any DataSourceFactory
    let cacheFactory: CacheDataSourceFactory?
    let pool: DecoderPool
    let playerOptions: PlayerOptions
    let pictures: Bool
    let sound: SoundOptions?
    /// The session's link under `scheduler.policy`: the players' and the prefetch jobs' segments
    /// go through it.
    let desk: LinkDesk

    /// `threadName` tags the players' threads (`DedicatedThread.running(prefix:)`).
    package init(config: ReelConfig, factory: any DataSourceFactory, cacheFactory: CacheDataSourceFactory?, threadName: String,
                 pictures: Bool = false, sound: SoundFormat? = nil) {
        self.config = config
        self.factory = factory
        self.cacheFactory = cacheFactory
        self.pictures = pictures
        pool = DecoderPool(config: config)
        var options = PlayerOptions(config: config)
        options.threadName = threadName
        options.keepsPicture = pictures
        playerOptions = options
        // Room for the read-ahead and as much again: a listened player never loses sound it needs.
        self.sound = sound.map { SoundOptions(format: $0, capacity: max(.seconds(6), options.buffer.maxBuffer * 2)) }
        desk = LinkDesk.make(config, meter: factory.bandwidthMeter)
    }

    package func makePlayer(_ id: PlayerID, card: String, video: URL, sound: Bool,
                            report: @escaping @Sendable (SessionFetch) -> Void) -> any FeedPlayer {
        var reporting = ReportingDataSourceFactory(base: factory, origin: .playback, card: card, player: id, report: report)
        reporting.turns = desk.seat(card: card)
        var options = playerOptions
        if sound { options.sound = self.sound }
        return Player(card: card, input: video, factory: reporting, pool: pool, options: options)
    }

    package func loadThumbnail(card: String, url: URL, report: @escaping @Sendable (SessionFetch) -> Void) async throws -> Picture? {
        let spec = DataSpec(url: url, kind: .image)
        // Whole in the cache: read at once. Otherwise it waits for the download policy's turn
        // (at once under today's); not fetched when the session ends first.
        if cacheFactory?.cache.completeBytes(spec) == nil {
            guard await desk.thumbnailTurn(card: card, bytes: Self.expectedThumbnailBytes) else { return nil }
        }
        let reporting = ReportingDataSourceFactory(base: factory, origin: .thumbnail, card: card, player: nil, report: report)
        let pictures = self.pictures
        return try await BlockingPool.shared.run {
            let bytes = try reporting.fetch(spec, limit: 16 << 20)
            return pictures ? try Picture.image(bytes, name: url.absoluteString) : nil
        }
    }

    package func makePrefetch(onEvent: @escaping @Sendable (PrefetchEvent, FeedInput?) -> Void) -> FeedPrefetch? {
        guard config.prefetch.enabled, let cacheFactory else { return nil }
        return FeedPrefetch(config: config, factory: cacheFactory, desk: desk, onEvent: onEvent)
    }

    package func decoders() async -> SessionSummary.Decoders {
        let statistics = await pool.statistics
        var decoders = SessionSummary.Decoders()
        decoders.created = statistics.created
        decoders.reused = statistics.reused
        return decoders
    }

    package var bandwidthMeter: BandwidthMeter? { factory.bandwidthMeter }
    package var hasCache: Bool { cacheFactory != nil }

    /// What a thumbnail is expected to weigh before it is fetched, for the download policy (the
    /// simulation's default image size).
    static let expectedThumbnailBytes = 20_000

    package func preloadOrder(_ cards: [(card: String, urgent: Bool)]) { desk.setOrder(cards) }
    package func linkClosing() { desk.close() }
    package func onLinkCarries(_ report: @escaping @Sendable (Int?) -> Void) { desk.onCarries(report) }
    package func playingCards(_ cards: [String: Double?]) { desk.setPlaying(cards) }
}
