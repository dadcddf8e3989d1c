import Foundation
import ReelCore
import ReelFeed

/// How a generated scroll session behaves.
package enum TracePattern: String, Sendable, CaseIterable {
    /// Reads a widget, pauses on it for seconds, scrolls on to the next one, now and then back.
    case browse
    /// Fast flings through many cards with short rests.
    case fling
    /// Goes from carousel to carousel and swipes through each one's cards.
    case carousel
    /// A mix of the three, with taps on visible cards.
    case mixed
    /// Lean-back viewing: most shorts watched to their end and a carousel through its previews,
    /// a skip now and then, one widget at a time.
    case watch

    /// The names, for help texts and errors: "browse, fling, carousel, mixed, watch".
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Makes scroll traces over a laid-out feed, deterministic for a seed: motions are sampled at
/// 30 Hz, rests are single samples, so a minute is a few hundred lines.
///
/// The motions follow a phone's scroll physics (docs/feed-session.md, "Traces"): a scroll of less
/// than `Physics.flingScreens` screens is a drag that eases out; a longer one is a fling (a short
/// drag, the finger lifts at up to `Physics.maxFlingVelocity`, then the content decays
/// exponentially with time constant `Physics.decelerationSeconds`, a platform scroll view's),
/// repeated while the user wants to go farther than one fling carries; a carousel swipe pages one
/// card (two, now and then) with an ease-out. A session opens with a look at the first screen,
/// since nobody scrolls a feed before it has appeared.
package struct TraceGenerator: Sendable {
    /// The constants of the scroll physics (`Fling.Physics`, shared with the viewer's flings).
    package typealias Physics = Fling.Physics

    package let build: FeedBuild
    private var random: SeededRandom
    private var samples: [ScrollSample] = []
    private var time = 0.0
    private var y = 0.0
    private var carouselX: [Int: Double] = [:]

    /// Samples per second while the feed moves.
    static let rate = 30.0

    package init(build: FeedBuild, seed: UInt64) {
        self.build = build
        random = SeededRandom(seed: seed)
    }

    /// A trace of `seconds` seconds in `pattern` (an empty feed gives a single sample).
    package static func generate(_ pattern: TracePattern, seconds: Double, build: FeedBuild, seed: UInt64) -> ScrollTrace {
        var generator = TraceGenerator(build: build, seed: seed)
        generator.run(pattern, seconds: seconds)
        // A step may run well past the end (a carousel's swipes and rests take many seconds).
        return ScrollTrace(samples: generator.samples).cut(after: generator.rounded(seconds))
    }

    private var layout: FeedLayout { build.layout }
    private var model: FeedModel { build.model }
    private var maxY: Double { max(0, layout.contentHeight - layout.viewport.height) }

    private mutating func run(_ pattern: TracePattern, seconds: Double) {
        samples = [ScrollSample(time: 0, y: 0)]
        guard layout.count > 0 else { return }
        // The first page arrives, the first screen shows; the user looks at it before scrolling.
        if pattern != .browse && pattern != .watch { pause(1 + 2 * random.unit()) }
        while time < seconds {
            switch pattern {
            case .browse: browseStep()
            case .fling: flingStep()
            case .carousel: carouselStep()
            case .mixed:
                let roll = random.unit()
                if roll < 0.45 { browseStep(tapChance: 0.3) } else if roll < 0.75 { carouselStep() } else { flingStep() }
            case .watch: watchStep()
            }
        }
    }

    // MARK: - Patterns

    /// Rests on the widget at the top, then scrolls to the next (or, one time in eight, the previous).
    private mutating func browseStep(tapChance: Double = 0.1) {
        let current = layout.firstWidget(below: y + 1)
        rest(on: current, tapChance: tapChance)
        let back = random.unit() < 0.125 && current > 0
        let target = back ? current - 1 : min(current + 1, layout.count - 1)
        if target == current || alignedOffset(target) == y {
            move(to: 0)  // the end of the feed: go back to the top
        } else {
            scroll(to: alignedOffset(target), duration: 0.35 + 0.25 * random.unit())
        }
    }

    /// Watches the widget at the top, then drags to the next. The catalog has no durations, so a
    /// watch lasts long enough for the samples' shorts (6-15 s; each plays once, and the user
    /// lingers a moment on the end) or a carousel's previews to play through: a short is watched
    /// 8-16 s three times in four and skipped after 1.5-4 s otherwise; a carousel 8-15 s.
    private mutating func watchStep() {
        let current = layout.firstWidget(below: y + 1)
        let seconds: Double? = switch layout.types[current] {
        case .short?: random.unit() < 0.75 ? 8 + 8 * random.unit() : 1.5 + 2.5 * random.unit()
        case .carousel?: 8 + 7 * random.unit()
        case .merch?, nil: nil
        }
        rest(on: current, tapChance: 0, seconds: seconds)
        let next = min(current + 1, layout.count - 1)
        if next == current || alignedOffset(next) == y {
            move(to: 0)  // the end of the feed: go back to the top
        } else {
            scroll(to: alignedOffset(next), duration: 0.3 + 0.2 * random.unit())
        }
    }

    /// Flings several screens down (up near the end), then rests briefly.
    private mutating func flingStep() {
        let screens = 2.5 + 6 * random.unit()
        var target = y + screens * layout.viewport.height
        if target > maxY { target = max(0, y - screens * layout.viewport.height) }
        fling(to: target)
        let settled = layout.firstWidget(below: y + 1)
        scroll(to: alignedOffset(settled), duration: 0.2)
        pause(0.6 + (random.unit() < 0.2 ? 3 : 1.2) * random.unit())
    }

    /// Scrolls to the next carousel and swipes through it card by card.
    private mutating func carouselStep() {
        let start = layout.firstWidget(below: y + 1)
        guard let next = (start + 1..<layout.count).first(where: { layout.types[$0] == .carousel })
            ?? (0..<layout.count).first(where: { layout.types[$0] == .carousel }) else {
            browseStep()
            return
        }
        move(to: alignedOffset(next))
        rest(on: next, tapChance: 0.15, seconds: 1.5 + 2 * random.unit())
        let swipes = 2 + Int(random.unit() * 3)
        let step = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        for _ in 0..<swipes {
            let from = carouselX[next] ?? 0
            let to = min(layout.maxCarouselOffset(widget: next), from + step * (1 + (random.unit() < 0.3 ? 1 : 0)))
            guard to > from else { break }
            swipe(widget: next, from: from, to: to, duration: 0.3 + 0.15 * random.unit())
            rest(on: next, tapChance: 0.15, seconds: 1.5 + 2.5 * random.unit())
        }
    }

    // MARK: - Motions

    /// The offset that puts widget `index` near the top of the screen, within the feed.
    private func alignedOffset(_ index: Int) -> Double {
        min(maxY, max(0, layout.frames[index].y - layout.metrics.widgetSpacing))
    }

    /// Stays still; a read of a video widget lasts longer than a glance at merch.
    private mutating func rest(on widget: Int, tapChance: Double, seconds: Double? = nil) {
        let base: Double = switch layout.types[widget] {
        case .short?: 3 + 5 * random.unit()
        case .carousel?: 2 + 3 * random.unit()
        case .merch?, nil: 0.8 + random.unit()
        }
        let duration = seconds ?? base
        if random.unit() < tapChance, let card = visibleVideoCard(in: widget) {
            pause(0.4 + random.unit())
            samples.append(ScrollSample(time: rounded(time), y: rounded(y), tap: card))
            pause(max(0.5, duration - 1))
        } else {
            pause(duration)
        }
    }

    /// A card id of `widget` showing a video, preferring what the carousel offset shows.
    private func visibleVideoCard(in widget: Int) -> String? {
        let item = model.items[widget]
        let cards = item.cards.filter { $0.video != nil }
        guard !cards.isEmpty else { return nil }
        let step = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        let first = item.type == .carousel ? Int(((carouselX[widget] ?? 0) / step).rounded()) : 0
        return cards[min(first, cards.count - 1)].id
    }

    private mutating func pause(_ seconds: Double) {
        time += seconds
        samples.append(ScrollSample(time: rounded(time), y: rounded(y)))
    }

    /// Goes to `target`: a drag for a short way, flings and a short adjustment for a long one.
    private mutating func move(to target: Double) {
        let to = min(max(0, target), maxY)
        guard abs(to - y) > Physics.flingScreens * layout.viewport.height else {
            scroll(to: to, duration: 0.35 + 0.25 * random.unit())
            return
        }
        fling(to: to)
        if abs(to - y) > 0.5 { scroll(to: to, duration: 0.2 + 0.1 * random.unit()) }
    }

    /// Flings towards `target` (within the feed): each fling is a drag of `dragSeconds` whose
    /// speed ramps up to the release velocity, then the exponential decay of a `Fling`
    /// that would come to rest at the target or as far as the
    /// fastest fling carries; the user flings again when it has slowed to `reflingVelocity`. It
    /// ends at rest (under `restVelocity`), near the target.
    private mutating func fling(to target: Double) {
        let to = min(max(0, target), maxY)
        let tau = Physics.decelerationSeconds
        let step = 1 / Self.rate
        // Each fling covers at least 30 points of what remains, so this ends.
        while abs(to - y) > 30 {
            let remaining = to - y
            let sign: Double = remaining > 0 ? 1 : -1
            // The drag covers (1 + 0.3) / 2 of v0 × dragSeconds; the decay v0 × τ.
            let dragShare = 0.65 * Physics.dragSeconds
            let v0 = min(Physics.maxFlingVelocity, abs(remaining) / (tau + dragShare))
            var elapsed = 0.0
            while elapsed + step <= Physics.dragSeconds + 1e-9 {
                elapsed += step
                let v = v0 * (0.3 + 0.7 * elapsed / Physics.dragSeconds)
                advance(by: sign * v * step, over: step)
            }
            // The decay, until it rests or (when the target is still far) the user flings again.
            let farther = abs(to - y) > v0 * tau + 1
            let floor = farther ? Physics.reflingVelocity : Physics.restVelocity
            let decay = Fling(from: y, velocity: sign * v0)
            var t = 0.0
            while abs(decay.velocity(after: t)) > floor {
                t += step
                advance(by: decay.offset(after: t) - y, over: step)
            }
        }
    }

    /// Moves by `delta` (kept within the feed) in `seconds`, one sample.
    private mutating func advance(by delta: Double, over seconds: Double) {
        time += seconds
        y = min(max(0, y + delta), maxY)
        samples.append(ScrollSample(time: rounded(time), y: rounded(y)))
    }

    /// An ease-out vertical scroll to `target` (a drag the finger follows), sampled at `rate`.
    private mutating func scroll(to target: Double, duration: Double) {
        let from = y
        let to = min(max(0, target), maxY)
        let steps = max(1, Int((duration * Self.rate).rounded()))
        for step in 1...steps {
            let progress = Self.easeOut(Double(step) / Double(steps))
            time += duration / Double(steps)
            y = from + (to - from) * progress
            samples.append(ScrollSample(time: rounded(time), y: rounded(y)))
        }
        y = to
    }

    /// An ease-out horizontal swipe of carousel `widget`.
    private mutating func swipe(widget: Int, from: Double, to: Double, duration: Double) {
        let id = model.items[widget].id
        let steps = max(1, Int((duration * Self.rate).rounded()))
        for step in 1...steps {
            let x = from + (to - from) * Self.easeOut(Double(step) / Double(steps))
            time += duration / Double(steps)
            samples.append(ScrollSample(time: rounded(time), y: rounded(y), x: [id: rounded(x)]))
        }
        carouselX[widget] = to
    }

    private static func easeOut(_ t: Double) -> Double { 1 - pow(1 - t, 3) }

    /// Milliseconds and tenths of a point are precision enough and keep trace files short.
    private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension ScrollTrace {
    /// The trace as JSON lines, the format `ScrollTrace.parse` reads.
    package var jsonLines: String {
        var out = ""
        for sample in samples {
            var line = "{\"t\": \(JSONWriter.number(sample.time)), \"y\": \(JSONWriter.number(sample.y))"
            if !sample.x.isEmpty {
                let parts = sample.x.keys.sorted().map { "\(JSONWriter.quoted($0)): \(JSONWriter.number(sample.x[$0]!))" }
                line += ", \"x\": {\(parts.joined(separator: ", "))}"
            }
            if let tap = sample.tap { line += ", \"tap\": \(JSONWriter.quoted(tap))" }
            out += line + "}\n"
        }
        return out
    }
}
