import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing
@testable import ReelMedia

/// What the pool and player tests share: one transfer engine, the samples, and small helpers that
/// wait on real signals (player and pool events), never on time.
enum MediaTestSupport {
    /// Patient: a starved test machine must not cut a healthy transfer (the watchdog has tests of its own).
    static let engine = TransferEngine(options: .patient)

    static func factory() -> URLDataSourceFactory {
        URLDataSourceFactory(engine: engine, allowLocalFiles: false)
    }

    static func sample(_ name: String) throws -> SampleIndex.Sample {
        try #require(try SampleIndex.load().samples.first { $0.name == name }, "no sample \(name) in Samples/samples.json")
    }

    /// The reference hashes of the rendition a default player picks (the only one, or the
    /// 540x960 one of a ladder).
    static func reference(_ name: String) throws -> [String] {
        let sample = try sample(name)
        let rendition = try #require(sample.renditions.count == 1 ? sample.renditions.first
                                     : sample.renditions.first { $0.width == 540 })
        let hashes = try SampleIndex.referenceHashes(rendition.reference)
        try #require(hashes.count == rendition.frames, "reference of \(name) is incomplete")
        return hashes
    }

    static func url(_ server: CDNServer, _ name: String) throws -> URL {
        server.url(for: try sample(name).entry)
    }

    /// The video stream's parameters of a sample as a player's decoder gets them (H.264 from MP4
    /// converted to Annex B), opened from its local path on a thread of its own.
    static func streamParameters(_ name: String) async throws -> StreamParameters {
        let path = PackagePaths.samples.appendingPathComponent(try sample(name).entry)
        return try await BlockingPool.shared.run {
            let opener = MediaOpener(
                factory: URLDataSourceFactory(engine: engine, allowLocalFiles: true), cancellation: Cancellation(),
                log: RequestLog(), constraints: PlaybackConstraints(), demux: DemuxOptions(), includeAudio: false)
            var timeline = TTFFTimeline()
            let media = try opener.open(path, timeline: &timeline)
            // The stream's parameters live in the demuxer: copy them while it is open.
            return try withExtendedLifetime(media) { try media.videoStreamParameters() }
        }
    }

    static func options(mode: HeadlessRenderer.Mode = .fast, hashes: Bool = true) -> PlayerOptions {
        var options = PlayerOptions()
        options.mode = mode
        options.frameHashes = hashes
        return options
    }
}

/// Frame hashes a player reports, and an action to run once at a chosen frame (on the decoder's
/// thread, as a feed's owner might call `pause()` from anywhere).
final class FrameLog: Sendable {
    private let hashes = Locked<[String]>([])
    private let trigger = Locked<(index: Int, action: @Sendable () -> Void)?>(nil)

    var all: [String] { hashes.withLock { $0 } }

    func at(frame index: Int, _ action: @escaping @Sendable () -> Void) {
        trigger.withLock { $0 = (index, action) }
    }

    var callback: @Sendable (FrameHash) -> Void {
        { [self] hash in
            let count = hashes.withLock { list -> Int in
                list.append(hash.md5)
                return list.count
            }
            let action = trigger.withLock { trigger -> (@Sendable () -> Void)? in
                guard let current = trigger, current.index == count else { return nil }
                trigger = nil
                return current.action
            }
            action?()
        }
    }
}

/// Reads a player's events until one matches; fails the test if the stream ends first.
struct EventReader {
    private var iterator: AsyncStream<PlayerEvent>.Iterator
    /// Every event read so far, in order.
    private(set) var seen: [PlayerEvent] = []

    init(_ player: Player) { iterator = player.events.makeAsyncIterator() }

    @discardableResult
    mutating func next(where match: (PlayerEvent) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async -> PlayerEvent? {
        while let event = await iterator.next() {
            seen.append(event)
            if match(event) { return event }
            // Nothing follows an end or a failure: waiting on would hang the run, not fail it.
            if event.endsPlayback { break }
        }
        Issue.record("the player's events ended before the one awaited; saw \(seen)", sourceLocation: sourceLocation)
        return nil
    }
}

extension PlayerEvent {
    var isFirstFrame: Bool { if case .firstFrame = self { true } else { false } }
    var isPaused: Bool { if case .paused = self { true } else { false } }
    var isEnded: Bool { if case .ended = self { true } else { false } }
    var isPrepared: Bool { if case .prepared = self { true } else { false } }
    var isPreempted: Bool { if case .preempted = self { true } else { false } }
    var isBufferFull: Bool { if case .bufferFull = self { true } else { false } }
    var isPreviewElapsed: Bool { if case .previewElapsed = self { true } else { false } }
    var isFailed: Bool { if case .failed = self { true } else { false } }
    var endsPlayback: Bool { isEnded || isFailed }
}

/// Reads the pool's events until one matches.
func nextPoolEvent(_ iterator: inout AsyncStream<DecoderPoolEvent>.Iterator,
                   where match: (DecoderPoolEvent) -> Bool) async -> DecoderPoolEvent? {
    while let event = await iterator.next() {
        if match(event) { return event }
    }
    return nil
}

/// One manual time for a player: the renderer's blocking `FrameClock` and the `Clock` its
/// preview timer sleeps on. Nothing moves until the test calls `advance(by:)`.
final class SteppedClock: FrameClock, @unchecked Sendable {
    // @unchecked Sendable: `condition` guards the blocking sleepers; `manual` is itself Sendable.
    let manual = ManualClock()
    private let condition = NSCondition()

    func now() -> Duration { manual.now.offset }

    /// Deadlines of the sleeps under way.
    private var sleeping: [Duration] = []

    func sleep(until deadline: Duration) {
        condition.lock()
        sleeping.append(deadline)
        condition.broadcast()
        while manual.now.offset < deadline { condition.wait() }
        sleeping.removeAll { $0 == deadline }
        condition.unlock()
    }

    /// Blocks until a thread sleeps until `deadline` (a renderer holding a frame due then).
    func waitForSleep(until deadline: Duration) {
        condition.lock()
        while !sleeping.contains(deadline) { condition.wait() }
        condition.unlock()
    }

    func advance(by delta: Duration) {
        condition.lock()
        manual.advance(by: delta)
        condition.broadcast()
        condition.unlock()
    }
}
