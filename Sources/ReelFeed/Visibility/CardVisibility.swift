import ReelCore
/// The per-card state machine over `VisibilityState`, as a pure function of the card's visible
/// fraction, whether it is in the prefetch range ahead, and whether it is still within the keep
/// range. `active` is not reached here: the tracker shows `ready` as `active` while the play
/// arbiter's grant holds.
///
/// Going up, a card mounts at `mount`, becomes ready at `ready`; going down, a ready card that is
/// leaving (its fraction fell more than the hysteresis below its peak since it became ready) is
/// softly released below `softRelease`, pauses below `pause`, and unmounts at or below `unmount`.
/// Every downward threshold is crossed only `hysteresis` below the value (`x < t - h`) while
/// upward ones are crossed at the value (`x >= t`), so a card resting on a threshold does not flap;
/// back up from `softRelease` needs `softRelease` itself.
public struct CardVisibility: Sendable, Equatable {
    /// The visibility-driven state (never `active`).
    public internal(set) var state: VisibilityState = .idle
    /// Highest fraction since the card last became ready.
    public internal(set) var peak: Double = 0

    public init() {}

    public init(state: VisibilityState, peak: Double = 0) {
        self.state = state == .active ? .ready : state
        self.peak = peak
    }

    /// Moves to the state the inputs call for, possibly across several states at once.
    public mutating func update(fraction f: Double, ahead: Bool, keep: Bool, thresholds t: VisibilityThresholds, hysteresis h: Double) {
        for _ in 0..<8 {
            let next = step(f, ahead: ahead, keep: keep || ahead, t, h)
            if next == state { return }
            if next == .ready { peak = f }
            state = next
        }
    }

    private mutating func step(_ f: Double, ahead: Bool, keep: Bool, _ t: VisibilityThresholds, _ h: Double) -> VisibilityState {
        switch state {
        case .idle:
            if f >= t.mount && f > t.unmount { return .mounted }
            return ahead ? .prefetch : .idle
        case .prefetch:
            if f >= t.mount && f > t.unmount { return .mounted }
            return keep ? .prefetch : .idle
        case .unmounted:
            if f >= t.mount && f > t.unmount { return .mounted }
            if ahead { return .prefetch }
            return keep ? .unmounted : .idle
        case .mounted:
            if f >= t.ready { return .ready }
            if f <= t.unmount { return .unmounted }
            return .mounted
        case .ready, .active:
            peak = max(peak, f)
            if f < t.pause - h || f <= t.unmount { return .paused }
            if f < t.softRelease - h && f < peak - h { return .softRelease }
            return .ready
        case .softRelease:
            if f >= t.softRelease && f >= t.ready { return .ready }
            if f < t.pause - h || f <= t.unmount { return .paused }
            return .softRelease
        case .paused:
            if f >= t.ready && f > t.unmount { return .ready }
            if f <= t.unmount { return .unmounted }
            return .paused
        }
    }
}
