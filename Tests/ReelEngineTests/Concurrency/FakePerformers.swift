import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia
import ReelNet

/// Players that answer at once on the engine's clock: a mount holds its first frame, a play shows
/// it, a preview limit or the video's length elapses on the clock. For driving a `FeedEngine`
/// on a manual clock; thumbnails load at once, and there is no cache to prefetch into. With
/// `picture`, every thumbnail is it and every player shows it once played (a screen's engine).
struct FakePerformers: FeedPerformers {
    let clock: EngineClock
    /// Seconds every fake video lasts.
    var videoSeconds = 8.0
    var picture: Picture?
    let made = Locked<[PlayerID: FakePlayer]>([:])
    /// Whether each card's player was asked to decode its sound, by card.
    let soundAsked = Locked<[String: Bool]>([:])

    func makePlayer(_ id: PlayerID, card: String, video: URL, sound: Bool, report: @escaping @Sendable (SessionFetch) -> Void)
        -> any FeedPlayer {
        let player = FakePlayer(card: card, url: video, clock: clock, seconds: videoSeconds, picture: picture)
        made.withLock { $0[id] = player }
        soundAsked.withLock { $0[card] = sound }
        return player
    }

    func loadThumbnail(card: String, url: URL, report: @escaping @Sendable (SessionFetch) -> Void) async throws -> Picture? { picture }
    func makePrefetch(onEvent: @escaping @Sendable (PrefetchEvent, FeedInput?) -> Void) -> FeedPrefetch? { nil }
    func decoders() async -> SessionSummary.Decoders { SessionSummary.Decoders() }
    var bandwidthMeter: BandwidthMeter? { nil }
    var hasCache: Bool { false }
}

/// A player whose video plays on the engine's clock: it prerolls when prepared, shows its first
/// frame when first played, and reports its preview limit or its end when the clock gets there.
final class FakePlayer: FeedPlayer {
    let events: AsyncStream<PlayerEvent>
    private let continuation: AsyncStream<PlayerEvent>.Continuation
    private let clock: EngineClock
    private let seconds: Double
    private let card: String
    private let url: URL
    private let shownPicture: Picture?
    private struct State {
        var played = 0.0
        var since: Double?
        var shown = false
        var stopped = false
        var timer: Task<Void, Never>?
    }
    private let state = Locked(State())

    init(card: String, url: URL, clock: EngineClock, seconds: Double, picture: Picture? = nil) {
        self.card = card
        self.url = url
        shownPicture = picture
        self.clock = clock
        self.seconds = seconds
        (events, continuation) = AsyncStream.makeStream()
    }

    func prepare() { continuation.yield(.prerolled) }

    func play(previewLimit: Duration?) {
        let now = clock.now()
        let (first, played) = state.withLock { state -> (Bool, Double) in
            defer { state.shown = true }
            state.since = now
            return (!state.shown, state.played)
        }
        if first { continuation.yield(.firstFrame(TTFFBreakdown(totalMs: 1))) }
        let limit = previewLimit.map { min($0.seconds, seconds) } ?? seconds
        let (clock, continuation) = (self.clock, self.continuation)
        let ends = limit >= seconds
        let timer = Task {
            do { try await clock.sleep(until: now + max(0, limit - played)) } catch { return }
            continuation.yield(ends ? .ended(frames: 1) : .previewElapsed(.seconds(limit)))
        }
        state.withLock { $0.timer?.cancel(); $0.timer = timer }
    }

    func pause() {
        let now = clock.now()
        state.withLock { state in
            if let since = state.since { state.played += now - since }
            state.since = nil
            state.timer?.cancel()
        }
    }

    func stop() async -> PlayerReport {
        pause()
        state.withLock { $0.stopped = true }
        continuation.yield(.stopped)
        continuation.finish()
        return PlayerReport(card: card, url: url.absoluteString)
    }

    var buffered: Duration { .seconds(4) }

    /// The picture once a play showed its first frame.
    var picture: Picture? { state.withLock { $0.shown } ? shownPicture : nil }
}
