/// `scheduler.*`: which policy decides what the link fetches next, and the link scheduler's model:
/// the prices it weighs (a played second's bitrate against stalls, bitrate changes and bytes) and
/// its safety margins (docs/scheduler.md).
public struct SchedulerSettings: ConfigSection {
    @Setting("Who decides what the link fetches: \"today\" (preload stages, the prefetch gate and the adaptive rule, each on its own) or \"scheduler\" (one link scheduler weighing retention, stalls, bitrate changes and the byte price).", .oneOf(["today", "scheduler"]))
    public var policy = "today"

    @Setting("Price of a megabit downloaded, in points of a played second at 1 Mbit/s (a watched second at bitrate r Mbit/s is worth r): what CDN bytes cost against quality. 0 makes bytes free.", .range(0.0...100.0))
    public var byteCost = 0.5

    @Setting("Price of a second stalled, in the same points.", .range(0.0...1000.0))
    public var stallCost = 1.85

    @Setting("Price of a stall however short, in the same points, beside its seconds: a viewer feels each interruption (the short video challenge's score counts only the seconds; its benchmark sets this to 0).", .range(0.0...1000.0))
    public var stallEventCost = 1.0

    @Setting("Price of a bitrate change between consecutive watched segments, per Mbit/s of change.", .range(0.0...100.0))
    public var switchCost = 1.0

    @Setting("Slack kept above a segment's expected download time before the playing video needs it, in milliseconds.", .range(0...10_000))
    public var marginMs = 300

    @Setting("Share of the bandwidth estimate the scheduler plans with.", .range(0.05...1.0))
    public var bandwidthSafety = 0.8

    @Setting("Throughput assumed before anything is measured (this session, or remembered for the network), in kilobits per second: a cautious cold start, in place of device.bandwidthEstimateKbps, which is a guess.", .range(1...10_000_000))
    public var startBandwidthKbps = 1000

    @Setting("Transfers the throughput estimate (a harmonic mean) is taken over.", .range(1...100))
    public var throughputSamples = 5

    @Setting("Segments of the playing video each bitrate plan looks ahead.", .range(1...60))
    public var horizonSegments = 5

    @Setting("Most media read ahead of the playhead of the playing video, in milliseconds.", .range(0...600_000))
    public var maxBufferMs = 4000

    @Setting("The playing video reads ahead past what is due only while at least this share of the viewers at its playhead still watch at the end of the buffer (its retention); 1 never reads ahead.", .range(0.0...1.0))
    public var bufferRetention = 0.95

    @Setting("Media of each video ahead fetched before it plays (its start), in milliseconds (whole segments covering it).", .range(0...60_000))
    public var startMs = 1000

    @Setting("Mean watch time of the default retention curve (exponential), in milliseconds, for videos whose catalog entry has no curve; the user's own swipes move it.", .range(100...3_600_000))
    public var defaultWatchMs = 8000

    @Setting("Chance the user goes on from one card to the next, for cards the state gives no reach probability (the next card is reached for sure).", .range(0.0...1.0))
    public var reachDecay = 0.8

    @Setting("Longest wait before the scheduler looks again, in milliseconds.", .range(1...10_000))
    public var pollMs = 50

    @Setting("Segments the scheduler keeps on the link at once: it is asked again while fewer are on their way, and sees those as fetched (the benchmark's world has one).", .range(1...8))
    public var maxTransfers = 3

    @Setting("Keep one segment on the link until a transfer has measured it, whatever maxTransfers says, so the first transfer measures the link alone. Off by default: in the feed simulation it took most of a cold session's stalls away on slow measured links, but in real time it cost warm starts (docs/scheduler.md).")
    public var measureFirst = false

    public init() {}
}
