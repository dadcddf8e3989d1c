/// `visibility.*`: when a card counts as visible, ready or leaving, and how fast scrolls coalesce.
public struct VisibilitySettings: ConfigSection {
    /// Visible-fraction thresholds of one widget type (`visibility.short.*`, ...).
    public struct Thresholds: ConfigSection {
        @Setting("Visible fraction at which a card mounts (a decoder may attach).", .range(0.0...1.0))
        public var mount = 0.01

        @Setting("Visible fraction at which a card becomes ready to play.", .range(0.0...1.0))
        public var ready = 0.2

        @Setting("Visible fraction below which a leaving ready or playing card is softly released.", .range(0.0...1.0))
        public var softRelease = 0.5

        @Setting("Visible fraction below which a card pauses.", .range(0.0...1.0))
        public var pause = 0.2

        @Setting("Visible fraction at or below which a card unmounts.", .range(0.0...1.0))
        public var unmount = 0.0

        public init() {}
    }

    /// `visibility.prefetch.*`: which cards ahead of the viewport enter the prefetch state.
    public struct Prefetch: ConfigSection {
        @Setting("Unit of the prefetch range ahead: screens or cards.", .oneOf(["screens", "cards"]))
        public var unit = "screens"

        @Setting("Prefetch range ahead in screens (unit screens).", .range(0.0...100.0))
        public var screens = 1.0

        @Setting("Prefetch range ahead in widgets (unit cards).", .range(0...1000))
        public var cards = 3

        @Setting("Cards farther than this many screens either way (and not ahead in range) return to idle.", .range(0.0...100.0))
        public var keepScreens = 1.5

        @Setting("Carousel cards to the right of a carousel's visible cards that are prefetched.", .range(0...100))
        public var carouselCards = 1

        public init() {}
    }

    /// `visibility.coalesce.*`: holding back costly transitions during fast scrolls.
    public struct Coalesce: ConfigSection {
        @Setting("Scroll speed in points per second above which costly transitions are held back.", .atLeast(0.0))
        public var velocity = 2500.0

        @Setting("Longest a held-back transition waits, in milliseconds.", .range(0...60_000))
        public var maxDelayMs = 300

        @Setting("Time without scroll events after which the scroll counts as stopped, in milliseconds.", .range(1...60_000))
        public var settleMs = 100

        public init() {}
    }

    public var short = Thresholds()
    public var carousel = Thresholds()
    public var merch = Thresholds()

    @Setting("Hysteresis: a card moves down past a threshold only this far (as a fraction) below it.", .range(0.0...0.5))
    public var hysteresis = 0.02

    public var prefetch = Prefetch()
    public var coalesce = Coalesce()

    /// The thresholds of a widget type.
    public func thresholds(for type: WidgetType) -> Thresholds {
        switch type {
        case .short: short
        case .carousel: carousel
        case .merch: merch
        }
    }

    public init() {}
}
