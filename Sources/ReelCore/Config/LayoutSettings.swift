/// `layout.*`: screen classes and the size of each widget type.
public struct LayoutSettings: ConfigSection {
    /// `layout.breakpoints.*`: screen widths where the screen class changes.
    public struct Breakpoints: ConfigSection {
        @Setting("Screens at least this wide (points) are medium.", .range(1...100_000))
        public var medium = 600

        @Setting("Screens at least this wide (points) are large.", .range(1...100_000))
        public var large = 1024

        public init() {}
    }

    /// `layout.short.*`.
    public struct Short: ConfigSection {
        @Setting("Height of a short's title line in points.", .range(0.0...10_000.0))
        public var titleHeight = 24.0

        @Setting("Height of a short's comment line in points.", .range(0.0...10_000.0))
        public var commentHeight = 20.0

        public init() {}
    }

    /// `layout.carousel.visibleCards.*`: cards across the feed width per screen class.
    public struct VisibleCards: ConfigSection {
        @Setting("Carousel cards across the feed width on small screens.", .range(0.5...50.0))
        public var small = 2.5

        @Setting("Carousel cards across the feed width on medium screens.", .range(0.5...50.0))
        public var medium = 3.5

        @Setting("Carousel cards across the feed width on large screens.", .range(0.5...50.0))
        public var large = 3.5

        public init() {}
    }

    /// `layout.carousel.*`.
    public struct Carousel: ConfigSection {
        public var visibleCards = VisibleCards()

        @Setting("Gap between carousel cards in points.", .range(0.0...1000.0))
        public var cardSpacing = 8.0

        @Setting("Carousel card ratio (height:width); videos are aspect-fit inside.", .ratio)
        public var cardAspectRatio = "16:9"

        @Setting("Height of a carousel's title line in points.", .range(0.0...10_000.0))
        public var titleHeight = 24.0

        public init() {}
    }

    /// `layout.merch.*`.
    public struct Merch: ConfigSection {
        @Setting("Height of a merch card's title line in points.", .range(0.0...10_000.0))
        public var titleHeight = 24.0

        @Setting("Height of a merch card's footer in points.", .range(0.0...10_000.0))
        public var footerHeight = 20.0

        public init() {}
    }

    public var breakpoints = Breakpoints()

    @Setting("Vertical gap between widgets in points.", .range(0.0...10_000.0))
    public var widgetSpacing = 12.0

    public var short = Short()
    public var carousel = Carousel()
    public var merch = Merch()

    public init() {}
}
