/// `widgets.*`: how catalog videos become shorts and carousels, and where merch goes.
public struct WidgetSettings: ConfigSection {
    /// `widgets.merch.*`: merch cards inserted between video widgets.
    public struct Merch: ConfigSection {
        @Setting("Chance of a merch widget in each gap between video widgets.", .range(0.0...1.0))
        public var rate = 0.25

        @Setting("Video widgets at least between two merch widgets (and before the first).", .range(1...10_000))
        public var minGap = 3

        @Setting("Merch image URL; {seed}, {width}, {height} and {n} (1 + the merch ordinal modulo imageCount) are filled in; a relative URL is resolved against the feed's base URL.")
        public var imageURLTemplate = "https://picsum.photos/seed/{seed}/{width}/{height}"

        @Setting("Images {n} in imageURLTemplate cycles through (1...imageCount).", .range(1...10_000))
        public var imageCount = 6

        @Setting("Merch image width in pixels.", .range(1...10_000))
        public var imageWidth = 600

        @Setting("Merch image ratios (height:width) to pick from.", .ratio)
        public var imageAspectRatios = ["1:1", "5:4", "4:3"]

        public init() {}
    }

    @Setting("Every n-th video widget is a carousel (positions n, 2n, ... among shorts and carousels).", .range(1...10_000))
    public var carouselEvery = 4

    @Setting("Videos in a carousel.", .range(1...100))
    public var carouselSize = 6

    @Setting("Fewest videos for a carousel at the catalog's end; fewer left become shorts.", .range(1...100))
    public var carouselMinSize = 2

    @Setting("Seed of the random merch placement and dummy texts.", .atLeast(0))
    public var seed = 42

    public var merch = Merch()

    public init() {}
}
