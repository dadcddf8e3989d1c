import Foundation
import ReelCore
import ReelFeed

/// Where the feed and its carousels are scrolled to, moved as a phone moves them: a drag follows
/// the finger and flings on release with the platform's decay (`Fling`, the trace generator's
/// physics); a carousel drag pages on release (`CarouselPaging`) with an ease-out; the wheel and
/// a touchpad glide to where their notches add up; keys move a widget at a time. Offsets are in
/// points; time in seconds on the screen's clock. A value: the screen feeds it input and reads
/// the offsets each frame.
struct ScrollController {
    /// The feed's vertical offset (top of the screen in content coordinates).
    private(set) var y = 0.0
    /// Carousels' horizontal offsets by widget id.
    private(set) var carousels: [String: Double] = [:]

    /// Points a press moves before it is a drag rather than a click.
    static let slop = 6.0
    /// Points one wheel notch scrolls.
    static let wheelStep = 60.0
    /// Time constant of the wheel's glide, seconds.
    static let wheelGlide = 0.07
    /// Seconds of a carousel's paging and a key's move.
    static let easeSeconds = 0.3

    private enum Axis: Equatable {
        case vertical
        /// A carousel: its widget id and position.
        case horizontal(String, Int)
    }

    private struct Drag {
        let x: Double
        let y: Double
        let startOffset: Double
        /// The carousel under the press, if any.
        let carousel: (id: String, index: Int, offset: Double)?
        var axis: Axis?
        var samples: [(time: Double, position: Double)] = []
    }

    private enum Motion {
        case fling(Fling, since: Double)
        case ease(from: Double, to: Double, since: Double, seconds: Double)
        case glide(to: Double)
    }

    private var drag: Drag?
    private var vertical: Motion?
    private var horizontal: [String: (index: Int, motion: Motion)] = [:]
    private var lastStep: Double?

    /// A click: a press released where it was.
    struct Click: Equatable {
        let x: Double
        let y: Double
    }

    var isMoving: Bool { drag?.axis != nil || vertical != nil || !horizontal.isEmpty }

    // MARK: - Pointer

    /// The pointer went down at (`x`, `y`) on the screen (points); `carousel` is the carousel
    /// under it. A touch stops what it touches.
    mutating func press(x: Double, y: Double, at time: Double, carousel: (id: String, index: Int)?) {
        vertical = nil
        if let carousel { horizontal[carousel.id] = nil }
        drag = Drag(x: x, y: y, startOffset: self.y, carousel: carousel.map { ($0.id, $0.index, carousels[$0.id] ?? 0) })
        drag?.samples = [(time, y)]
    }

    /// The pointer moved while down.
    mutating func move(x: Double, y: Double, at time: Double, layout: FeedLayout) {
        guard var drag else { return }
        let dx = x - drag.x, dy = y - drag.y
        if drag.axis == nil, hypot(dx, dy) >= Self.slop {
            if let carousel = drag.carousel, abs(dx) > abs(dy) {
                drag.axis = .horizontal(carousel.id, carousel.index)
            } else {
                drag.axis = .vertical
            }
        }
        switch drag.axis {
        case .vertical?:
            self.y = clampY(drag.startOffset - dy, layout)
            drag.samples.append((time, y))
        case .horizontal(let id, let index)?:
            let start = drag.carousel?.offset ?? 0
            carousels[id] = clampX(start - dx, index, layout)
            drag.samples.append((time, x))
        case nil:
            break
        }
        drag.samples.removeAll { $0.time < time - 0.15 }
        self.drag = drag
    }

    /// The pointer went up: a drag flings (or pages its carousel); a press that did not move is
    /// a click, returned.
    mutating func release(x: Double, y: Double, at time: Double, layout: FeedLayout) -> Click? {
        move(x: x, y: y, at: time, layout: layout)
        guard let drag else { return nil }
        self.drag = nil
        guard let axis = drag.axis else { return Click(x: drag.x, y: drag.y) }
        // The finger's speed over its last 100 ms; the content moves the other way.
        let recent = drag.samples.filter { $0.time >= time - 0.1 }
        var velocity = 0.0
        if let first = recent.first, let last = recent.last, last.time - first.time > 0.005 {
            velocity = -(last.position - first.position) / (last.time - first.time)
        }
        switch axis {
        case .vertical:
            if abs(velocity) > Fling.Physics.restVelocity { vertical = .fling(Fling.released(at: self.y, velocity: velocity), since: time) }
        case .horizontal(let id, let index):
            let offset = carousels[id] ?? 0
            let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
            let target = CarouselPaging.landing(offset: offset, velocity: velocity, pitch: pitch,
                                                maxOffset: layout.maxCarouselOffset(widget: index))
            horizontal[id] = (index, .ease(from: offset, to: target, since: time, seconds: Self.easeSeconds))
        }
        return nil
    }

    /// Wheel or touchpad notches (positive `dy`: content up, as SDL reports a wheel turned away
    /// from the user); sideways ones page the carousel under the pointer.
    mutating func wheel(dx: Double, dy: Double, at time: Double, carousel: (id: String, index: Int)?, layout: FeedLayout) {
        if dy != 0, drag == nil {
            let from: Double
            if case .glide(let target)? = vertical { from = target } else { from = y }
            vertical = .glide(to: clampY(from - dy * Self.wheelStep, layout))
        }
        if dx != 0, let carousel {
            page(carousel: carousel, by: dx > 0 ? 1 : -1, at: time, layout: layout)
        }
    }

    // MARK: - Keys and programmatic moves

    /// Moves to the widget `by` positions after (before, when negative) the one at the top.
    mutating func step(widgets by: Int, at time: Double, layout: FeedLayout) {
        guard layout.count > 0 else { return }
        let current = min(layout.firstWidget(below: y + 1), layout.count - 1)
        var target = min(max(0, current + by), layout.count - 1)
        // Up from inside a widget first goes to its own top.
        if by < 0, aligned(current, layout) < y - 1 { target = current }
        ease(to: aligned(target, layout), at: time)
    }

    /// Scrolls to `offset` with an ease-out.
    mutating func ease(to offset: Double, at time: Double) {
        drag = nil
        vertical = .ease(from: y, to: offset, since: time, seconds: Self.easeSeconds)
    }

    /// Pages a carousel one card (`by` cards) with an ease-out.
    mutating func page(carousel: (id: String, index: Int), by cards: Int, at time: Double, layout: FeedLayout) {
        let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        let from = carousels[carousel.id] ?? 0
        var base = from
        if case .ease(_, let to, _, _)? = horizontal[carousel.id]?.motion { base = to }
        let target = clampX(((base / pitch).rounded() + Double(cards)) * pitch, carousel.index, layout)
        horizontal[carousel.id] = (carousel.index, .ease(from: from, to: target, since: time, seconds: Self.easeSeconds))
    }

    /// Jumps to offsets given from outside (a trace), stopping every motion.
    mutating func set(y: Double, carousels: [String: Double]) {
        drag = nil
        vertical = nil
        horizontal = [:]
        self.y = y
        for (id, x) in carousels { self.carousels[id] = x }
    }

    /// The offset that puts widget `index` near the top, as the trace generator aligns it.
    func aligned(_ index: Int, _ layout: FeedLayout) -> Double {
        clampY(layout.frames[index].y - layout.metrics.widgetSpacing, layout)
    }

    // MARK: - Time

    /// Moves what is in motion to `time`.
    mutating func advance(to time: Double, layout: FeedLayout) {
        let elapsed = lastStep.map { max(0, time - $0) } ?? 0
        lastStep = time
        if let motion = vertical {
            let (position, done) = Self.position(motion, current: y, at: time, elapsed: elapsed)
            y = clampY(position, layout)
            // A fling that reaches an end of the feed stops there.
            if done || (Self.isFling(motion) && y != position) { vertical = nil }
        }
        for (id, entry) in horizontal {
            let current = carousels[id] ?? 0
            let (position, done) = Self.position(entry.motion, current: current, at: time, elapsed: elapsed)
            carousels[id] = clampX(position, entry.index, layout)
            if done { horizontal[id] = nil }
        }
    }

    private static func isFling(_ motion: Motion) -> Bool {
        if case .fling = motion { return true }
        return false
    }

    /// Where a motion is at `time`, and whether it has come to rest.
    private static func position(_ motion: Motion, current: Double, at time: Double, elapsed: Double) -> (Double, Bool) {
        switch motion {
        case .fling(let fling, let since):
            let seconds = time - since
            return (fling.offset(after: seconds), fling.isResting(after: seconds))
        case .ease(let from, let to, let since, let seconds):
            let progress = min(1, max(0, (time - since) / seconds))
            return (from + (to - from) * (1 - pow(1 - progress, 3)), progress >= 1)
        case .glide(let target):
            let next = current + (target - current) * (1 - exp(-elapsed / wheelGlide))
            return abs(target - next) < 0.5 ? (target, true) : (next, false)
        }
    }

    private func maxY(_ layout: FeedLayout) -> Double { max(0, layout.contentHeight - layout.viewport.height) }

    private func clampY(_ value: Double, _ layout: FeedLayout) -> Double { min(max(0, value), maxY(layout)) }

    private func clampX(_ value: Double, _ widget: Int, _ layout: FeedLayout) -> Double {
        guard widget < layout.count else { return 0 }
        return min(max(0, value), layout.maxCarouselOffset(widget: widget))
    }
}
