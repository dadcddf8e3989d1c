import Foundation

/// How a generated scroll session behaves.
public enum TracePattern: String, Sendable, CaseIterable {
    /// Reads a widget, pauses on it for seconds, scrolls on to the next one, now and then back.
    case browse
    /// Fast flings through many cards with short rests.
    case fling
    /// Goes from carousel to carousel and swipes through each one's cards.
    case carousel
    /// A mix of the three, with taps on visible cards.
    case mixed
}

/// Makes scroll traces over a laid-out feed, deterministic for a seed: motions are eased and
/// sampled at 30 Hz, rests are single samples, so a minute is a few hundred lines.
public struct TraceGenerator: Sendable {
    public let build: FeedBuild
    private var random: SeededRandom
    private var samples: [ScrollSample] = []
    private var time = 0.0
    private var y = 0.0
    private var carouselX: [Int: Double] = [:]

    /// Samples per second while the feed moves.
    static let rate = 30.0

    public init(build: FeedBuild, seed: UInt64) {
        self.build = build
        random = SeededRandom(seed: seed)
    }

    /// A trace of `seconds` seconds in `pattern` (an empty feed gives a single sample).
    public static func generate(_ pattern: TracePattern, seconds: Double, build: FeedBuild, seed: UInt64) -> ScrollTrace {
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
        while time < seconds {
            switch pattern {
            case .browse: browseStep()
            case .fling: flingStep()
            case .carousel: carouselStep()
            case .mixed:
                let roll = random.unit()
                if roll < 0.45 { browseStep(tapChance: 0.3) } else if roll < 0.75 { carouselStep() } else { flingStep() }
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
            scroll(to: 0, duration: 1.2)  // the end of the feed: go back to the top
        } else {
            scroll(to: alignedOffset(target), duration: 0.35 + 0.25 * random.unit())
        }
    }

    /// Flings several screens down (up near the end), then rests briefly.
    private mutating func flingStep() {
        let screens = 2.5 + 6 * random.unit()
        var target = y + screens * layout.viewport.height
        if target > maxY { target = max(0, y - screens * layout.viewport.height) }
        scroll(to: target, duration: 0.45 + 0.35 * random.unit())
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
        scroll(to: alignedOffset(next), duration: 0.5 + 0.3 * random.unit())
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

    /// An ease-out vertical scroll to `target`, sampled at `rate`.
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
    public var jsonLines: String {
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
