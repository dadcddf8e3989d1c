import ReelCore

/// The renderer's pacing policy as a pure state machine: when each frame is due on the display
/// clock, and whether it is shown on time, late, dropped, or arrives after a stall.
///
/// - A frame is due at `anchor + (pts - anchorPts)`; the first frame anchors the clock when it
///   arrives (that moment ends TTFF).
/// - Discontinuity: a pts that goes backwards, or jumps ahead by more than `maxGap` (a new
///   encode after `EXT-X-DISCONTINUITY`, a timestamp wrap), starts a new timeline: the clock
///   re-anchors so the frame is due one interval after the previous one, as a player splices.
/// - Stall: the frame reached the renderer after its due time, so the renderer wanted a frame and
///   none was ready. The clock re-anchors on the late frame (playback resumes from it, as a
///   player resumes after rebuffering); the stall lasts from due time to arrival.
/// - Late: the frame was ready in time but shown more than `lateTolerance` after its due time
///   (the renderer itself fell behind). Dropped: more than one frame interval late while the next
///   frame is already waiting, so it is skipped to catch up.
public struct FramePacer: Sendable {
    public enum Decision: Equatable, Sendable {
        /// Show the frame at this time (sleep until then).
        case present(at: Duration)
        /// Skip the frame: it is too late and a newer one is ready.
        case drop
    }

    public var lateTolerance: Duration = .milliseconds(4)
    public var stallTolerance: Duration = .milliseconds(1)
    /// A forward pts jump larger than this is a discontinuity, not a gap to wait through.
    public var maxGap: Double = 1.0
    private var anchor: (time: Duration, pts: Double)?
    private var lastPts: Double?
    /// When the last frame looked at was due.
    private var lastDue: Duration = .zero
    /// Set by `resume(at:)`: the next frame re-anchors the clock instead of counting as a stall.
    private var resumedAt: Duration?
    private(set) public var stats = RenderStats()

    public init() {}

    /// Decides what to do with a frame of presentation time `pts` (seconds) that reached the
    /// renderer's queue at `arrivedAt` and is being looked at `now`. `nextReady` says whether a
    /// later frame is already queued; `interval` is the nominal frame duration.
    public mutating func decide(pts: Double, arrivedAt: Duration, now: Duration, nextReady: Bool,
                                interval: Duration) -> Decision {
        if let resumed = resumedAt, anchor != nil {
            // After a pause: playback goes on from this frame; the pause is not a stall.
            resumedAt = nil
            let start = max(arrivedAt, resumed)
            anchor = (start, pts)
            lastPts = pts
            lastDue = start
            return .present(at: max(now, start))
        }
        guard var current = anchor, let previous = lastPts else {
            anchor = (arrivedAt, pts)
            lastPts = pts
            lastDue = arrivedAt
            return .present(at: now)
        }
        if pts < previous || pts - previous > max(maxGap, 2 * interval.seconds) {
            stats.discontinuities += 1
            current = (lastDue + interval, pts)
            anchor = current
        }
        let due = current.time + .seconds(pts - current.pts)
        lastPts = pts
        if arrivedAt > due + stallTolerance {
            stats.stalls += 1
            stats.stallTime += arrivedAt - due
            anchor = (arrivedAt, pts)
            lastDue = arrivedAt
            return .present(at: max(now, arrivedAt))
        }
        lastDue = due
        if now > due + interval && nextReady {
            stats.dropped += 1
            return .drop
        }
        return .present(at: max(now, due))
    }

    /// Playback resumes at `now` after a pause: the next frame anchors the clock afresh.
    public mutating func resume(at now: Duration) {
        resumedAt = now
    }

    /// Records that a frame decided `.present(at: due)` was shown at `shownAt`.
    public mutating func presented(due: Duration, shownAt: Duration) {
        stats.presented += 1
        let lateness = shownAt - due
        if lateness > lateTolerance {
            stats.late += 1
        }
        stats.maxLateness = max(stats.maxLateness, lateness)
    }
}

/// What the renderer saw: frames shown, late, dropped, and stalls with their total time.
public struct RenderStats: Sendable, Hashable {
    public var presented = 0
    public var late = 0
    public var dropped = 0
    public var stalls = 0
    public var stallTime: Duration = .zero
    public var maxLateness: Duration = .zero
    /// Timeline breaks the clock re-anchored over (pts backwards or jumping ahead).
    public var discontinuities = 0

    public init() {}
}
