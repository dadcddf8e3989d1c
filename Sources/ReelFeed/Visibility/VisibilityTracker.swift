import ReelCore
/// Turns scroll offsets into card state transitions for the whole feed while touching only the
/// cards near the viewport: the visible, prefetch and keep ranges are found by binary search over
/// the laid-out frames, and cards outside them are visited only while they are still "live"
/// (not idle). Each card runs a `CardVisibility` machine with its widget type's thresholds.
///
/// Coalescing: while the scroll is faster than `visibility.coalesce.velocity`, transitions that
/// cost work (prefetch, mount, ready, unmount, idle) are held back and only the net result is
/// emitted once the scroll slows down, stops for `settleMs`, or `maxDelayMs` after the first held
/// transition. Transitions that stop playback (to `softRelease` or `paused`) are never held: a
/// playing card flung off screen pauses at once; its unmount waits. A card that flies past (idle
/// to mounted to idle) emits nothing.
///
/// Play: `setPlaying(_:granted:)` is the play arbiter's input. A granted `ready` card is reported
/// as `active`; it stays granted through `softRelease` and loses the grant when it pauses.
public struct VisibilityTracker: Sendable {
    struct Track: Sendable {
        var machine = CardVisibility()
        /// The state consumers were last told.
        var reported: VisibilityState = .idle
        var granted = false
        var fraction: Double = 0
        var stamp = 0
        var isLive: Bool { machine.state != .idle || reported != .idle }
    }

    public let parameters: VisibilityParameters
    private var tracks: [Track] = []
    /// Card numbers that are not idle (or not yet reported idle), ascending.
    private var live: [Int] = []
    private var carouselOffsets: [Int: Double] = [:]
    private var stamp = 0
    private var lastSampleTime: Double?
    private var heldSince: Double?

    /// The last vertical offset (top of the viewport in content coordinates).
    public private(set) var offset: Double = 0
    public private(set) var direction: ScrollDirection = .down
    /// Vertical speed between the last two scroll samples, points per second.
    public private(set) var velocity: Double = 0

    public init(parameters: VisibilityParameters) {
        self.parameters = parameters
    }

    public init(config: ReelConfig) {
        self.init(parameters: VisibilityParameters(config: config))
    }

    // MARK: Inputs

    /// A scroll sample: the vertical offset and any carousels' horizontal offsets (by widget
    /// position; others keep theirs) at `time` seconds.
    public mutating func scroll(
        to y: Double, carouselOffsets offsets: [(widget: Int, x: Double)] = [], at time: Double,
        layout: FeedLayout, model: FeedModel
    ) -> [VisibilityTransition] {
        if let last = lastSampleTime {
            if time > last { velocity = abs(y - offset) / (time - last) }
        } else {
            velocity = 0
        }
        if y > offset + 0.5 { direction = .down } else if y < offset - 0.5 { direction = .up }
        offset = y
        lastSampleTime = time
        for (widget, x) in offsets where widget >= 0 && widget < layout.count {
            carouselOffsets[widget] = min(max(0, x), layout.maxCarouselOffset(widget: widget))
        }
        return evaluate(at: time, fast: velocity > parameters.coalesceVelocity, layout: layout, model: model)
    }

    /// Re-evaluates at the last offset: after layout changed (a page arrived) or when
    /// `nextDeadline` has come.
    public mutating func refresh(at time: Double, layout: FeedLayout, model: FeedModel) -> [VisibilityTransition] {
        evaluate(at: time, fast: isFast(at: time), layout: layout, model: model)
    }

    /// The play arbiter's grant (`true`) or revocation (`false`) for a card. A grant applies only to
    /// a card reported `ready` and is reported as `ready -> active`; a revocation of an `active`
    /// card as `active -> ready`. Anything else changes nothing and returns no transition.
    public mutating func setPlaying(_ card: CardRef, granted: Bool, at time: Double, layout: FeedLayout, model: FeedModel) -> [VisibilityTransition] {
        guard let number = layout.cardNumber(card), number < tracks.count else { return [] }
        var track = tracks[number]
        var events: [VisibilityTransition] = []
        if granted {
            guard track.machine.state == .ready, track.reported == .ready, !track.granted else { return [] }
            track.granted = true
            events.append(transition(number, from: .ready, to: .active, fraction: track.fraction, time: time, layout: layout, model: model))
            track.reported = .active
        } else {
            guard track.granted else { return [] }
            track.granted = false
            if track.reported == .active {
                events.append(transition(number, from: .active, to: .ready, fraction: track.fraction, time: time, layout: layout, model: model))
                track.reported = .ready
            }
        }
        tracks[number] = track
        return events
    }

    /// Keeps card states in step after the layout was redone from `widget` on with other card
    /// counts (`oldCardStart` is the layout's `cardStart` before). Cards that no longer exist are
    /// reported as going to `idle`.
    public mutating func cardsChanged(from widget: Int, oldCardStart: [Int], at time: Double, layout: FeedLayout, model: FeedModel) -> [VisibilityTransition] {
        guard widget < oldCardStart.count - 1 else { return [] }
        var events: [VisibilityTransition] = []
        var newTracks = Array(tracks[..<min(oldCardStart[widget], tracks.count)])
        newTracks.reserveCapacity(layout.cardCount)
        for w in widget..<layout.count {
            let old = w + 1 < oldCardStart.count ? oldCardStart[w]..<oldCardStart[w + 1] : 0..<0
            let newCount = layout.cards(ofWidget: w).count
            for slot in 0..<newCount {
                let oldNumber = old.lowerBound + slot
                newTracks.append(slot < old.count && oldNumber < tracks.count ? tracks[oldNumber] : Track())
            }
            for slot in newCount..<max(newCount, old.count) where old.lowerBound + slot < tracks.count {
                let track = tracks[old.lowerBound + slot]
                guard track.reported != .idle else { continue }
                let (cardID, widgetID, type) = model.describe(CardRef(widget: w, slot: slot))
                events.append(VisibilityTransition(time: time, card: CardRef(widget: w, slot: slot), cardID: cardID, widgetID: widgetID, widgetType: type, from: track.reported, to: .idle, fraction: 0))
            }
        }
        tracks = newTracks
        live = tracks.indices.filter { tracks[$0].isLive }
        return events
    }

    // MARK: Queries

    /// The state last reported for a card (idle for cards never seen).
    public func state(of card: CardRef, layout: FeedLayout) -> VisibilityState {
        guard let number = layout.cardNumber(card), number < tracks.count else { return .idle }
        return tracks[number].reported
    }

    /// The visible fraction a card had at its last evaluation (0 for cards far away).
    public func fraction(of card: CardRef, layout: FeedLayout) -> Double {
        guard let number = layout.cardNumber(card), number < tracks.count else { return 0 }
        return tracks[number].fraction
    }

    /// Cards currently tracked (not idle), in feed order.
    public func liveCards(layout: FeedLayout) -> [CardRef] {
        live.map { layout.cardRef(number: $0) }
    }

    /// Whether some transitions are being held back.
    public var isHolding: Bool { heldSince != nil }

    /// When `refresh` must be called to release held transitions, if any are held.
    public var nextDeadline: Double? {
        guard let heldSince else { return nil }
        let settleAt = (lastSampleTime ?? heldSince) + parameters.settle
        return min(heldSince + parameters.maxDelay, settleAt)
    }

    /// A carousel's horizontal offset.
    public func carouselOffset(widget: Int) -> Double {
        carouselOffsets[widget] ?? 0
    }

    // MARK: Evaluation

    private func isFast(at time: Double) -> Bool {
        guard let last = lastSampleTime, time < last + parameters.settle else { return false }
        return velocity > parameters.coalesceVelocity
    }

    private mutating func evaluate(at time: Double, fast: Bool, layout: FeedLayout, model: FeedModel) -> [VisibilityTransition] {
        if tracks.count < layout.cardCount {
            tracks.append(contentsOf: repeatElement(Track(), count: layout.cardCount - tracks.count))
        }
        var coalescing = fast
        // Released by the maximum delay while the scroll is still fast: cards may mount (the
        // engine's picture stays fresh) but none becomes ready to play until the scroll slows.
        var capAtMounted = false
        if let heldSince, time >= heldSince + parameters.maxDelay {
            coalescing = false
            capAtMounted = fast
        }
        if !fast, lastSampleTime.map({ time >= $0 + parameters.settle }) ?? true {
            velocity = 0
        }

        let height = layout.viewport.height
        let top = offset
        let bottom = top + height
        let visible = layout.widgets(from: top, to: bottom)
        let ahead = aheadRange(visible: visible, top: top, bottom: bottom, layout: layout)
        let keepDistance = parameters.keepScreens * height
        let keep = layout.widgets(from: top - keepDistance, to: bottom + keepDistance)
        let window = Self.span(visible, ahead, keep)

        stamp &+= 1
        var events: [VisibilityTransition] = []
        var stillHeld = false
        var heldReady = false
        var newLive: [Int] = []
        newLive.reserveCapacity(live.count + 8)
        let screenWidth = layout.viewport.width

        let aheadDistance = parameters.prefetchScreens * height
        let byCards = parameters.prefetchUnit == .cards
        let down = direction == .down
        for w in window {
            guard let type = layout.types[w] else { continue }
            let thresholds = parameters.thresholds[type.ordinal]
            let isVisible = visible.contains(w)
            let isAheadWidget = ahead.contains(w)
            let isKept = keep.contains(w)
            let cards = layout.cards(ofWidget: w)
            // A card is ahead when it lies beyond the viewport's leading edge within the prefetch
            // range (by distance, or by widget count); cards already passed are never ahead.
            @inline(__always) func isAhead(_ rect: Rect) -> Bool {
                let beyond = down ? rect.maxY > bottom : rect.minY < top
                if byCards { return beyond && (isAheadWidget || isVisible) }
                return beyond && (down ? rect.minY < bottom + aheadDistance : rect.maxY > top - aheadDistance)
            }
            if type == .carousel {
                let frame = layout.frames[w]
                let shift = carouselOffsets[w] ?? 0
                let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
                let aheadEdge = frame.maxX + Double(parameters.carouselPrefetchCards) * pitch
                for number in cards {
                    var rect = layout.cardRects[number]
                    rect.x -= shift
                    let fraction = isVisible ? min(1, rect.overlapArea(minX: frame.minX, maxX: frame.maxX, minY: top, maxY: bottom) / rect.area) : 0
                    // Along the row, cards up to `carouselCards` past the right edge are ahead.
                    let inRow = rect.maxX > frame.minX && rect.minX < aheadEdge
                    let rowVisible = rect.maxY > top && rect.minY < bottom
                    process(number, fraction: fraction, ahead: inRow && (rowVisible || isAhead(rect)), keep: isKept, thresholds: thresholds,
                            time: time, coalescing: coalescing, capAtMounted: capAtMounted, layout: layout, model: model, events: &events, held: &stillHeld, heldReady: &heldReady)
                    if tracks[number].isLive { newLive.append(number) }
                }
            } else {
                for number in cards {
                    let rect = layout.cardRects[number]
                    let fraction = isVisible ? min(1, rect.overlapArea(minX: 0, maxX: screenWidth, minY: top, maxY: bottom) / rect.area) : 0
                    process(number, fraction: fraction, ahead: isAhead(rect), keep: isKept, thresholds: thresholds,
                            time: time, coalescing: coalescing, capAtMounted: capAtMounted, layout: layout, model: model, events: &events, held: &stillHeld, heldReady: &heldReady)
                    if tracks[number].isLive { newLive.append(number) }
                }
            }
        }

        // Live cards outside the window: no longer visible, ahead or kept.
        var outside = false
        for number in live where tracks[number].stamp != stamp {
            outside = true
            let type = layout.types[layout.cardWidget[number]] ?? .short
            process(number, fraction: 0, ahead: false, keep: false, thresholds: parameters.thresholds[type.ordinal],
                    time: time, coalescing: coalescing, capAtMounted: capAtMounted, layout: layout, model: model, events: &events, held: &stillHeld, heldReady: &heldReady)
            if tracks[number].isLive { newLive.append(number) }
        }
        if outside {
            newLive.sort()
            events.sort { $0.card < $1.card }
        }
        live = newLive
        if stillHeld {
            if heldSince == nil { heldSince = time }
        } else if heldReady {
            // Only readies wait for the scroll to slow: a new hold window starts, so mounts and
            // unmounts coalesce again until the next maximum delay.
            heldSince = time
        } else {
            heldSince = nil
        }
        return events
    }

    /// The smallest range covering the non-empty ranges (empty ranges carry no position).
    private static func span(_ a: Range<Int>, _ b: Range<Int>, _ c: Range<Int>) -> Range<Int> {
        var lower = Int.max
        var upper = Int.min
        for range in [a, b, c] where !range.isEmpty {
            lower = min(lower, range.lowerBound)
            upper = max(upper, range.upperBound)
        }
        return lower < upper ? lower..<upper : 0..<0
    }

    @inline(__always)
    private func aheadRange(visible: Range<Int>, top: Double, bottom: Double, layout: FeedLayout) -> Range<Int> {
        switch parameters.prefetchUnit {
        case .screens:
            let distance = parameters.prefetchScreens * layout.viewport.height
            return direction == .down ? layout.widgets(from: bottom, to: bottom + distance) : layout.widgets(from: top - distance, to: top)
        case .cards:
            let k = parameters.prefetchCards
            return direction == .down
                ? visible.upperBound..<min(layout.count, visible.upperBound + k)
                : max(0, visible.lowerBound - k)..<visible.lowerBound
        }
    }

    @inline(__always)
    private mutating func process(
        _ number: Int, fraction: Double, ahead: Bool, keep: Bool, thresholds: VisibilityThresholds,
        time: Double, coalescing: Bool, capAtMounted: Bool, layout: FeedLayout, model: FeedModel,
        events: inout [VisibilityTransition], held: inout Bool, heldReady: inout Bool
    ) {
        var track = tracks[number]
        track.stamp = stamp
        track.fraction = fraction
        track.machine.update(fraction: fraction, ahead: ahead, keep: keep, thresholds: thresholds, hysteresis: parameters.hysteresis)
        var target = track.machine.state
        if target == .unmounted, track.reported == .idle || track.reported == .prefetch {
            // Mounted and unmounted again while held back: consumers never saw the mount, so the
            // card simply stays where they know it.
            track.machine = CardVisibility(state: track.reported)
            target = track.reported
        }
        if target == .ready, track.granted {
            target = .active
        } else if target != .softRelease {
            track.granted = false
        }
        if capAtMounted, target == .ready, !track.reported.mayPlay {
            // Hold the ready itself back; a card not yet mounted mounts now.
            heldReady = true
            if track.reported.isMounted {
                tracks[number] = track
                return
            }
            target = .mounted
        }
        if target != track.reported {
            if !coalescing || Self.isFree(from: track.reported, to: target) {
                events.append(transition(number, from: track.reported, to: target, fraction: fraction, time: time, layout: layout, model: model))
                track.reported = target
            } else {
                if track.reported.mayPlay, !target.mayPlay {
                    // Stop playback now; the rest (unmount, idle) waits.
                    events.append(transition(number, from: track.reported, to: .paused, fraction: fraction, time: time, layout: layout, model: model))
                    track.reported = .paused
                }
                if target != track.reported { held = true }
            }
        }
        tracks[number] = track
    }

    /// Transitions that cost no work and stop or hand over playback: never held back.
    private static func isFree(from: VisibilityState, to: VisibilityState) -> Bool {
        (to == .softRelease || to == .paused) && from.mayPlay
    }

    private func transition(_ number: Int, from: VisibilityState, to: VisibilityState, fraction: Double, time: Double, layout: FeedLayout, model: FeedModel) -> VisibilityTransition {
        let card = layout.cardRef(number: number)
        let (cardID, widgetID, type) = model.describe(card)
        return VisibilityTransition(time: time, card: card, cardID: cardID, widgetID: widgetID, widgetType: type, from: from, to: to, fraction: fraction)
    }
}
