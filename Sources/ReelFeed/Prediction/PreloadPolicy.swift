import ReelCore
/// Gives every card near the user a target `PreloadStage` and says what changed: the preload
/// half of the feed's prefetch, as Media3's `DefaultPreloadManager` ranks items by distance from
/// the playing one. Pure: the scroll as it is now (offset, direction, carousels' offsets, the
/// predicted landing of a fast scroll) and the layout in, actions out; the feed session performs
/// them (prefetch requests, mounts, cancels).
///
/// The focus is the viewport the user will look at next: where a fling is predicted to land while
/// it flies (`ScrollPredictor`), else the current one. By distance from the focus, in screens:
/// cards on it get `media` (and `firstFrame`, a mounted player, once a fling is about to rest
/// there; a slow scroll's cards are mounted by visibility), cards ahead within
/// `mediaScreens` get `media`, within `manifestScreens` `manifest`, behind within
/// `behindScreens` `media`; a carousel's cards past its visible row (at its predicted rest)
/// within `carouselCards` get `media`. Anything else gets `none`: a fling drops what it flies
/// past. A stage drops only once the card is `hysteresis` farther than the range that raised it,
/// so a scroll hovering on a boundary does not churn requests.
public struct PreloadPolicy: Sendable {
    public struct Parameters: Sendable, Equatable {
        public var mediaScreens = 3.0
        public var manifestScreens = 3.0
        public var behindScreens = 0.5
        public var carouselCards = 1
        /// Seconds before a fling's predicted rest at which the cards there mount.
        public var mountBeforeRest = 0.6
        public var hysteresis = 0.25

        public init() {}

        /// The parameters `preload.*` describe.
        public init(_ settings: PreloadSettings) {
            mediaScreens = settings.mediaScreens
            manifestScreens = max(settings.manifestScreens, settings.mediaScreens)
            behindScreens = settings.behindScreens
            carouselCards = settings.carouselCards
            mountBeforeRest = Double(settings.mountBeforeRestMs) / 1000
            hysteresis = settings.hysteresis
        }
    }

    /// What a card should reach, and how urgently: `urgent` cards are the ones the user is about
    /// to see (on the focus, the next card ahead, the next card of a row); `rank` orders the rest
    /// (points from the focus, nearer first).
    public struct Target: Sendable, Equatable {
        public var stage: PreloadStage
        public var urgent: Bool
        public var rank: Int

        public init(stage: PreloadStage, urgent: Bool = false, rank: Int = 0) {
            self.stage = stage
            self.urgent = urgent
            self.rank = rank
        }
    }

    /// Why a card's target fell to `none`.
    public enum DropReason: String, Sendable, Hashable, Codable {
        /// A fling flew past it towards its landing.
        case flownPast
        /// The user moved away from it (or the prediction moved on).
        case outOfRange
    }

    public enum Action: Sendable, Equatable {
        /// The card's target rose (or its urgency did): fetch up to the stage; `firstFrame` mounts.
        case raise(CardRef, Target)
        /// The card is no longer wanted at `firstFrame`: a mount made for it may go.
        case release(CardRef)
        /// The card's target fell to `none`: what is fetched for it may stop.
        case drop(CardRef, DropReason)
    }

    /// The scroll as it is now.
    public struct Scroll: Sendable, Equatable {
        /// Top of the viewport.
        public var offset: Double
        public var direction: ScrollDirection
        /// Carousels' horizontal offsets by widget position (missing: 0).
        public var carouselOffsets: [Int: Double]
        /// The vertical landing prediction, when the scroll moves.
        public var prediction: ScrollPredictor.Prediction?
        /// Where swiped carousels come to rest, by widget position.
        public var carouselLandings: [Int: Double]

        public init(offset: Double, direction: ScrollDirection = .down, carouselOffsets: [Int: Double] = [:],
                    prediction: ScrollPredictor.Prediction? = nil, carouselLandings: [Int: Double] = [:]) {
            self.offset = offset
            self.direction = direction
            self.carouselOffsets = carouselOffsets
            self.prediction = prediction
            self.carouselLandings = carouselLandings
        }
    }

    public let parameters: Parameters
    /// The target last given to each card that has one above `none`.
    public private(set) var targets: [CardRef: Target] = [:]
    /// Whether the focus was a predicted landing at the last update.
    public private(set) var isFlying = false

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// Targets for `scroll` over `layout`'s video cards (`model` says which cards show a video);
    /// returns what changed, in feed order.
    public mutating func update(_ scroll: Scroll, layout: FeedLayout, model: FeedModel) -> [Action] {
        let height = layout.viewport.height
        guard height > 0, layout.count > 0 else { return [] }
        let focus = Self.focus(scroll, height: height)
        isFlying = focus.flying
        var wanted: [CardRef: Target] = [:]
        let reach = max(parameters.manifestScreens, parameters.behindScreens) * (1 + parameters.hysteresis) * height
        for widget in layout.widgets(from: focus.top - reach, to: focus.top + height + reach) {
            for number in layout.cards(ofWidget: widget) {
                let card = layout.cardRef(number: number)
                guard model.video(of: card) != nil else { continue }
                let target = self.target(number, card: card, focus: focus, scroll: scroll, layout: layout)
                if target.stage > .none { wanted[card] = target }
            }
        }
        Self.markNext(&wanted, focus: focus, layout: layout)
        return diff(wanted, flying: focus.flying)
    }

    /// Forgets every target (the session ends): nothing is said about them.
    public mutating func reset() {
        targets = [:]
        isFlying = false
    }

    // MARK: - Targets

    struct Focus {
        var top: Double
        var direction: ScrollDirection
        var flying: Bool
    }

    /// The viewport that matters: a fling's landing while it flies, else the current one.
    static func focus(_ scroll: Scroll, height: Double) -> Focus {
        if let prediction = scroll.prediction, prediction.isFling, abs(prediction.landing - scroll.offset) > height / 4 {
            let direction: ScrollDirection = prediction.landing >= scroll.offset ? .down : .up
            return Focus(top: prediction.landing, direction: direction, flying: true)
        }
        return Focus(top: scroll.offset, direction: scroll.direction, flying: false)
    }

    private func target(_ number: Int, card: CardRef, focus: Focus, scroll: Scroll, layout: FeedLayout) -> Target {
        let height = layout.viewport.height
        let rect = layout.cardRects[number]
        let bottom = focus.top + height
        // Vertical distance from the focus, signed by the scroll's direction (positive: ahead).
        let gap: Double
        let ahead: Bool
        if rect.maxY <= focus.top {
            gap = focus.top - rect.maxY
            ahead = focus.direction == .up
        } else if rect.minY >= bottom {
            gap = rect.minY - bottom
            ahead = focus.direction == .down
        } else {
            gap = 0
            ahead = true
        }
        var stage = stageFor(screens: gap / height, ahead: ahead, current: targets[card]?.stage ?? .none)
        // Along a carousel's row: its visible cards at rest, those past the edge by card count.
        if layout.types[card.widget] == .carousel, stage > .none {
            stage = min(stage, rowStage(number, card: card, scroll: scroll, layout: layout))
        }
        var target = Target(stage: stage, urgent: false, rank: Int(gap.rounded()))
        if stage >= .media, Self.isOnScreen(rect, card: card, top: focus.top, scroll: scroll, layout: layout) {
            // On the screen the user will look at: wanted first, and mounted as a fling lands.
            target.urgent = true
            if focus.flying, let prediction = scroll.prediction, prediction.isDecaying,
               prediction.secondsToRest <= parameters.mountBeforeRest {
                target.stage = .firstFrame
            }
        }
        return target
    }

    /// The stage by vertical distance; `current` is kept while within the hysteresis.
    private func stageFor(screens: Double, ahead: Bool, current: PreloadStage) -> PreloadStage {
        let stretch = 1 + parameters.hysteresis
        func reached(_ range: Double, keep: Bool) -> Bool { screens <= range * (keep ? stretch : 1) || screens == 0 }
        func stage(keep: Bool) -> PreloadStage {
            if ahead {
                if reached(parameters.mediaScreens, keep: keep) { return .media }
                if reached(parameters.manifestScreens, keep: keep) { return .manifest }
                return .none
            }
            return reached(parameters.behindScreens, keep: keep) ? .media : .none
        }
        return max(stage(keep: false), min(current == .firstFrame ? .media : current, stage(keep: true)))
    }

    /// The stage of a carousel card along its row: the cards visible where the row rests get
    /// `media`, `carouselCards` past either edge `media`, a few more `manifest`.
    private func rowStage(_ number: Int, card: CardRef, scroll: Scroll, layout: FeedLayout) -> PreloadStage {
        let frame = layout.frames[card.widget]
        let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        let rest = scroll.carouselLandings[card.widget] ?? scroll.carouselOffsets[card.widget] ?? 0
        let rect = layout.cardRects[number]
        let left = rect.minX - rest, right = rect.maxX - rest
        let past = max(0, left - frame.maxX, frame.minX - right)
        guard pitch > 0 else { return .media }
        let cards = (past / pitch).rounded(.up)
        if cards <= Double(parameters.carouselCards) { return .media }
        return cards <= Double(parameters.carouselCards) + 2 ? .manifest : .none
    }

    /// Whether the card shows on the screen at `top` (its row at rest, for a carousel).
    private static func isOnScreen(_ rect: Rect, card: CardRef, top: Double, scroll: Scroll, layout: FeedLayout) -> Bool {
        guard rect.maxY > top, rect.minY < top + layout.viewport.height else { return false }
        guard layout.types[card.widget] == .carousel else { return true }
        let frame = layout.frames[card.widget]
        let rest = scroll.carouselLandings[card.widget] ?? scroll.carouselOffsets[card.widget] ?? 0
        return rect.maxX - rest > frame.minX && rect.minX - rest < frame.maxX
    }

    /// The nearest card ahead of the focus (the next one the user reaches) is urgent too.
    private static func markNext(_ wanted: inout [CardRef: Target], focus: Focus, layout: FeedLayout) {
        let bottom = focus.top + layout.viewport.height
        var next: (card: CardRef, distance: Double)?
        for (card, target) in wanted where !target.urgent && target.stage >= .media {
            guard let number = layout.cardNumber(card) else { continue }
            let rect = layout.cardRects[number]
            let distance = focus.direction == .down ? rect.minY - bottom : focus.top - rect.maxY
            guard distance >= 0 else { continue }
            if next.map({ distance < $0.distance || (distance == $0.distance && card < $0.card) }) ?? true {
                next = (card, distance)
            }
        }
        if let next { wanted[next.card]?.urgent = true }
    }

    // MARK: - Changes

    private mutating func diff(_ wanted: [CardRef: Target], flying: Bool) -> [Action] {
        var actions: [Action] = []
        for card in Set(targets.keys).union(wanted.keys).sorted() {
            let old = targets[card], new = wanted[card]
            switch (old, new) {
            case (nil, let new?):
                actions.append(.raise(card, new))
            case (let old?, nil):
                if old.stage == .firstFrame { actions.append(.release(card)) }
                actions.append(.drop(card, flying ? .flownPast : .outOfRange))
            case (let old?, let new?):
                if old.stage == .firstFrame && new.stage < .firstFrame { actions.append(.release(card)) }
                if new.stage > old.stage || (new.urgent && !old.urgent && new.stage >= old.stage) {
                    actions.append(.raise(card, new))
                }
            case (nil, nil):
                break
            }
        }
        targets = wanted
        return actions
    }
}
