import Foundation
import ReelCore

/// A decoded video frame as the renderer sees it: its timing, and its picture when the player
/// keeps pictures for a screen.
public struct RenderedFrame: Sendable {
    /// Presentation time in seconds.
    public var pts: Double
    /// When the frame entered the renderer's queue, on the renderer's clock.
    public var arrivedAt: Duration
    public var width: Int
    public var height: Int
    /// The decoded picture, when kept (`PlayerOptions.keepsPicture`).
    public var picture: Picture?
}

/// Shows decoded frames without a screen, paced on a `FrameClock`: in real time on a thread of
/// its own (frames queue up ahead of their due time, bounded), or at once in fast mode on the
/// caller's thread, judged on the media's own timeline. It never blocks the decoder longer than
/// its queue is full. Frames handed over with their picture leave the one presented last in
/// `picture`, for a screen to draw.
// @unchecked Sendable: `queue`, `finished`, `pacer` and `presented` are guarded by `condition`;
// the render thread, the decoder's thread and a screen's readers take it for every access.
public final class HeadlessRenderer: @unchecked Sendable {
    public enum Mode: Sendable { case realTime, fast }

    public let mode: Mode
    public let clock: any FrameClock
    private let capacity: Int
    private let condition = NSCondition()
    private var queue: [RenderedFrame] = []
    private var finished = false
    private var drained = false
    /// While paused, queued frames stay queued and the pause is not a stall.
    private var paused = false
    private var pacer = FramePacer()
    /// Fast mode's display clock: where the last shown frame was due (nil before the first).
    private var fastClock: Duration?
    private let interval: Duration
    /// Presentation times of shown frames, for the fps figure.
    private var firstShown: Duration?
    private var lastShown: Duration?
    /// Timestamps of the first and the last frame shown, for the playhead.
    private var shownPTS: (first: Double, last: Double)?
    /// The picture of the frame presented last, when frames come with theirs.
    private var presented: Picture?
    /// When the frame taken off the queue last stops showing (its due time plus a frame
    /// interval) unless another follows: the picture lasts until then with nothing queued.
    private var showsUntil: Duration?

    /// `interval` is the nominal frame duration (1/fps) used to judge drops.
    public init(mode: Mode, clock: any FrameClock = MonotonicFrameClock(), capacity: Int = 8,
                interval: Duration = .milliseconds(33)) {
        self.mode = mode
        self.clock = clock
        self.capacity = max(1, capacity)
        self.interval = interval
        if mode == .realTime {
            DedicatedThread.start(name: "reel.renderer") { [self] in self.renderLoop() }
        }
    }

    /// Hands a frame over, with its picture for `picture` when kept; in real-time mode blocks
    /// while the queue is full (but not while paused: a paused player's last frame goes into the
    /// queue at once).
    public func submit(pts: Double, width: Int, height: Int, picture: Picture? = nil) {
        let frame = RenderedFrame(pts: pts, arrivedAt: clock.now(), width: width, height: height, picture: picture)
        condition.lock()
        defer { condition.unlock() }
        switch mode {
        case .fast:
            // No display waits for frames in fast mode: each is judged as shown at its due time,
            // on a clock that jumps from one due time to the next (the decoder always keeps up).
            // Late, dropped and stall figures then come from the stream's timeline (a gap the
            // pacer cannot splice), never from how busy the machine was.
            let now = fastClock ?? frame.arrivedAt
            let decision = pacer.decide(pts: frame.pts, arrivedAt: now, now: now, nextReady: false, interval: .zero)
            guard case .present(let due) = decision else { return }
            pacer.presented(due: due, shownAt: due)
            fastClock = due
            note(shownAt: due, pts: frame.pts, picture: frame.picture)
        case .realTime:
            while queue.count >= capacity && !finished && !paused { condition.wait() }
            queue.append(frame)
            condition.broadcast()
        }
    }

    /// Media time queued but not yet shown.
    public var bufferedDuration: Duration {
        condition.lock()
        defer { condition.unlock() }
        return queuedSpan
    }

    /// Media time of the queued frames; under `condition`.
    private var queuedSpan: Duration {
        guard let first = queue.first, let last = queue.last else { return .zero }
        return .seconds(last.pts - first.pts) + interval
    }

    /// Media time left before the picture freezes if no other frame comes: the frames queued and
    /// what remains of the one taken off the queue to show. A decoder that finds no packet has
    /// this long before the player has run dry (the queue alone is empty from the moment the
    /// first frame is taken to show, well before it stops showing).
    package var timeToFreeze: Duration {
        condition.lock()
        defer { condition.unlock() }
        return (showsUntil.map { max(.zero, $0 - clock.now()) } ?? .zero) + queuedSpan
    }

    /// No more frames will come; waits until every queued frame has been shown.
    public func finish() -> RenderStats {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
        if mode == .realTime {
            while !drained { condition.wait() }
        }
        return pacer.stats
    }

    /// Stops showing frames, keeping the queued ones for `resume()` (a paused player).
    public func pause() {
        condition.lock()
        paused = true
        condition.broadcast()
        condition.unlock()
    }

    /// Shows frames again from the next queued one, on a clock anchored afresh.
    public func resume() {
        condition.lock()
        if paused {
            paused = false
            pacer.resume(at: clock.now())
        }
        condition.broadcast()
        condition.unlock()
    }

    /// What the renderer saw so far.
    public var stats: RenderStats {
        condition.lock()
        defer { condition.unlock() }
        return pacer.stats
    }

    /// Stops at once, dropping queued frames (a cancelled playback).
    public func stop() {
        condition.lock()
        queue.removeAll()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Shown frames per second of presentation time.
    public var framesPerSecond: Double? {
        condition.lock()
        defer { condition.unlock() }
        guard let first = firstShown, let last = lastShown, last > first, pacer.stats.presented > 1 else { return nil }
        return Double(pacer.stats.presented - 1) / (last - first).seconds
    }

    /// Media time from the first frame shown to the one shown last: where the playhead stands
    /// (nil before the first frame).
    public var shownMedia: Duration? {
        condition.lock()
        defer { condition.unlock() }
        return shownPTS.map { .seconds(max(0, $0.last - $0.first)) }
    }

    /// The media time (seconds, the stream's own clock) of the picture showing now: the frame
    /// presented last, moved on by the time since it was (at most a frame's worth, so a stall or
    /// a pause holds it). Before the first frame is shown it is that frame's time once it is
    /// handed over (it is due at once: the player reports its first frame then), nil before.
    /// A speaker keeps its sound with it.
    public var playhead: Double? {
        condition.lock()
        defer { condition.unlock() }
        guard let pts = shownPTS?.last, let lastShown else { return queue.first?.pts }
        if paused || finished { return pts }
        let since = (clock.now() - lastShown).seconds
        return pts + min(max(0, since), interval.seconds)
    }

    /// The picture of the frame presented last (nil before the first, or when frames come
    /// without pictures): what a screen shows of this video now, a paused one's included.
    public var picture: Picture? {
        condition.lock()
        defer { condition.unlock() }
        return presented
    }

    private func note(shownAt: Duration, pts: Double, picture: Picture?) {
        if let picture { presented = picture }
        if firstShown == nil { firstShown = shownAt }
        lastShown = shownAt
        shownPTS = (shownPTS?.first ?? pts, max(shownPTS?.last ?? pts, pts))
    }

    private func renderLoop() {
        condition.lock()
        while true {
            while !finished && (queue.isEmpty || paused) { condition.wait() }
            if queue.isEmpty && finished { break }
            let frame = queue.removeFirst()
            condition.broadcast()
            let decision = pacer.decide(
                pts: frame.pts, arrivedAt: frame.arrivedAt, now: clock.now(), nextReady: !queue.isEmpty,
                interval: interval)
            guard case .present(let due) = decision else { continue }
            showsUntil = due + interval
            condition.unlock()
            clock.sleep(until: due)
            let shownAt = clock.now()
            condition.lock()
            pacer.presented(due: due, shownAt: shownAt)
            note(shownAt: shownAt, pts: frame.pts, picture: frame.picture)
        }
        drained = true
        condition.broadcast()
        condition.unlock()
    }
}

