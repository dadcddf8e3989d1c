/// `prefetch.*`: downloading what the user is likely to watch next.
public struct PrefetchSettings: ConfigSection {
    /// `prefetch.segments.*`: segments fetched ahead per priority category.
    public struct Segments: ConfigSection {
        @Setting("Segments fetched ahead for the card about to play.", .range(0...100))
        public var imminent = 1

        @Setting("Segments fetched ahead for cards within the prefetch range.", .range(0...100))
        public var nearby = 1

        @Setting("Segments fetched ahead for the rest of the loaded page.", .range(0...100))
        public var page = 1

        @Setting("Segments fetched ahead for background work.", .range(0...100))
        public var background = 1

        public init() {}
    }

    @Setting("Prefetch at all.")
    public var enabled = true

    @Setting("Prefetch downloads running at once.", .range(1...64))
    public var maxConcurrent = 2

    @Setting("Prefetch downloads running at once on a low-end device.", .range(1...64))
    public var lowEndMaxConcurrent = 1

    @Setting("Priority categories in order, highest first.", .oneOf(["imminent", "nearby", "page", "background"]))
    public var categories = ["imminent", "nearby", "page", "background"]

    @Setting("When a page arrives, its videos within this many screens below the viewport are prefetched in the page category; 0 prefetches none of them (nor does a low-end device).", .range(0.0...1000.0))
    public var pageScreens = 3.0

    public var segments = Segments()

    @Setting("Segments fetched ahead per card on a low-end device, whatever the category.", .range(0...100))
    public var lowEndSegments = 1

    @Setting("Pause prefetching while the playing video is starving for data.")
    public var pauseWhileStarving = true

    @Setting("Prefetch downloads allowed while a playing video starves (with pauseWhileStarving): 0 pauses them all, more throttles to that many.", .range(0...64))
    public var starvingMaxConcurrent = 0

    @Setting("Prefetch beyond the cards about to play (the next card, where a fling lands) runs only while every playing video holds at least this much media, in milliseconds; 0 never holds it back.", .range(0...600_000))
    public var minPlayingBufferMs = 2000

    @Setting("Prefetch pauses while a play waits for its first frame, so the network is the play's.")
    public var pauseWhileStarting = true

    @Setting("Times a prefetch that failed on the network is queued again (behind the rest of its category) before it is dropped.", .range(0...10))
    public var retries = 1

    public init() {}
}
