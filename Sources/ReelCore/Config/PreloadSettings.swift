/// `preload.*`: what the feed session fetches and prepares ahead of the user: a target stage per
/// card by its distance from the viewport, or from where a fast scroll is predicted to land
/// (docs/prefetch.md, "Preload targets"). With `enabled` false the session prefetches as the
/// visibility ranges say (`visibility.prefetch.*`, `prefetch.pageScreens`).
public struct PreloadSettings: ConfigSection {
    /// `preload.prediction.*`: the landing prediction of a fast scroll.
    public struct Prediction: ConfigSection {
        @Setting("Time constant of a fling's exponential slow-down, in milliseconds (a platform scroll view's: 0.998 per ms is 500 ms); measured from the scroll instead while it visibly decays.", .range(10...10_000))
        public var decelerationMs = 500

        @Setting("Scroll samples the velocity is fitted over, in milliseconds.", .range(16...1000))
        public var windowMs = 100

        @Setting("Speed in points per second above which a scroll is a fling whose landing is predicted.", .atLeast(0.0))
        public var flingVelocity = 1500.0

        @Setting("Speed in points per second below which a scroll counts as stopping.", .atLeast(0.0))
        public var stoppingVelocity = 250.0

        @Setting("A predicted landing this close (points) to a widget's top snaps to it.", .range(0.0...10_000.0))
        public var snapDistance = 400.0

        public init() {}
    }

    @Setting("Preload by target stages (none, manifest, media, first frame) from the viewport and the predicted landing; false prefetches as the visibility ranges say.")
    public var enabled = true

    @Setting("Media fetched ahead for a card at the media stage, in milliseconds from its start (whole segments covering it).", .range(1...600_000))
    public var mediaMs = 2000

    @Setting("Cards ahead within this many screens of the viewport (or of the predicted landing) get the media stage.", .range(0.0...100.0))
    public var mediaScreens = 3.0

    @Setting("Cards ahead within this many screens get their manifests fetched.", .range(0.0...100.0))
    public var manifestScreens = 3.0

    @Setting("Cards behind the scroll direction within this many screens keep the media stage (a swipe back).", .range(0.0...100.0))
    public var behindScreens = 0.5

    @Setting("Carousel cards past a carousel's visible row (at its predicted rest) that get the media stage.", .range(0...100))
    public var carouselCards = 1

    @Setting("During a fling, the cards where it lands are mounted (first frame decoded) once it is predicted to rest within this many milliseconds.", .range(0...10_000))
    public var mountBeforeRestMs = 600

    @Setting("A card's stage drops only once it is this much farther (as a fraction of the range) than the range that raised it.", .range(0.0...2.0))
    public var hysteresis = 0.25

    public var prediction = Prediction()

    public init() {}
}
