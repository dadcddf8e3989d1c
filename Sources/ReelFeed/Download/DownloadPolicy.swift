import ReelCore

/// Whatever decides what the link fetches next: given the videos that could use it (the playing
/// one and those the user may reach), their buffers, sizes and retention, and the bandwidth and
/// latency estimates, it asks for one segment of one video at one variant, or to look again at a
/// time. The short-video benchmark, the feed simulation and the engine's download scheduler all
/// call a policy through this one interface. Pure: state in, a decision out; it may keep what it
/// learns (a throughput history, a user's swipes) between calls.
public protocol DownloadPolicy: Sendable {
    /// Its name in reports and on the command line.
    var name: String { get }
    /// The next request, or when to look again.
    mutating func decide(_ state: LinkState) -> DownloadDecision
    /// A request it asked for arrived: `bytes` in `seconds` (latency included).
    mutating func downloaded(_ request: SegmentRequest, bytes: Int, seconds: Double)
    /// Whether it looks at nothing but what readers ask (`VideoState.asks`; today's policy): a
    /// caller may then show it only the videos that ask.
    var readsOnlyAsks: Bool { get }
    /// How many of the playing videos (a carousel's) the link can carry at once, the first ones
    /// in the state's order; nil when it carries them all. The feed's rules play at most that
    /// many (`FeedInput.linkCarries`): on a link too weak for three, one playing beats three
    /// stalling. A caller asks while several videos play or while it carries fewer.
    mutating func carries(_ state: LinkState) -> Int?
    /// Which of the requests it asked for, still on the link, to stop: those that can no longer
    /// arrive in time, when stopping is cheaper than the stall they cause. `state` counts them
    /// as not fetched. A caller that can stop a transfer asks while some are on the link.
    mutating func giveUp(_ inFlight: [InFlightRequest], in state: LinkState) -> [SegmentRequest]
    /// How many segments it lets on the link at once now, when fewer than the caller's own bound
    /// (`scheduler.maxTransfers`); nil: the caller's bound.
    var transferLimit: Int? { get }
}

extension DownloadPolicy {
    public mutating func downloaded(_ request: SegmentRequest, bytes: Int, seconds: Double) {}
    public var readsOnlyAsks: Bool { false }
    public mutating func carries(_ state: LinkState) -> Int? { nil }
    public mutating func giveUp(_ inFlight: [InFlightRequest], in state: LinkState) -> [SegmentRequest] { [] }
    public var transferLimit: Int? { nil }

    /// The segments it lets on the link at once: `bound`, or fewer while `transferLimit` says so.
    package func transfers(within bound: Int) -> Int {
        transferLimit.map { min(bound, max(1, $0)) } ?? bound
    }

    /// `carries` asked as a caller that tells the feed asks it: while several videos play or
    /// while the feed was told it carries fewer (`told`). The new answer when it differs from
    /// `told`; nil when there is nothing new to tell.
    package mutating func carriesChange(_ state: LinkState, told: Int?) -> Int?? {
        guard told != nil || state.videos.lazy.filter(\.isPlaying).count > 1 else { return nil }
        let carries = carries(state)
        return carries == told ? nil : .some(carries)
    }
}

/// One segment of one video at one variant.
public struct SegmentRequest: Sendable, Hashable, CustomStringConvertible {
    /// The video's id in the state (a card id, or a position in a queue).
    public var video: String
    public var segment: Int
    /// Index into the video's variants, lowest bitrate first.
    public var variant: Int

    public init(video: String, segment: Int, variant: Int) {
        self.video = video
        self.segment = segment
        self.variant = variant
    }

    public var description: String { "\(video)#\(segment)@\(variant)" }
}

/// A request on the link: what it fetches, its size, what has arrived and how fast.
public struct InFlightRequest: Sendable, Hashable {
    public var request: SegmentRequest
    public var bytes: Int
    public var received: Int
    /// Its own throughput so far, bits per second, once its body has flowed long enough to tell
    /// (a link that collapsed shows here before any transfer completes); nil before.
    public var bitsPerSecond: Double?

    public init(request: SegmentRequest, bytes: Int, received: Int, bitsPerSecond: Double? = nil) {
        self.request = request
        self.bytes = bytes
        self.received = received
        self.bitsPerSecond = bitsPerSecond
    }
}

/// What a download policy answers.
public enum DownloadDecision: Sendable, Hashable {
    case fetch(SegmentRequest)
    /// The thumbnail of the card with this id (`LinkState.thumbnails`).
    case fetchThumbnail(String)
    /// Nothing worth fetching now: ask again at this time (seconds on the state's clock), or
    /// sooner if something changes.
    case wait(until: Double)
}

/// The link and the videos that could use it, as a download policy sees them.
public struct LinkState: Sendable {
    /// Seconds on the session's clock.
    public var now: Double
    /// Estimated throughput, bits per second: the caller's meter once it rests on a measurement
    /// (this session's transfers, or an estimate remembered for the network); nil before, when
    /// all it has is a configured guess (`device.bandwidthEstimateKbps`, 8 Mbit/s by default):
    /// a policy then starts from a guess of its own.
    public var bandwidthBitsPerSecond: Double?
    /// Estimated time from a request to its first byte, seconds.
    public var latency: Double
    /// The playing videos first (a carousel plays several; the first is the one whose viewing
    /// teaches a policy the user's watch times), then the others in the order the user would
    /// reach them.
    public var videos: [VideoState]
    /// Thumbnails (a merch card's image) waiting for the link, nearest first.
    public var thumbnails: [ThumbnailState]
    /// The segments on their way, which `videos` count as downloaded, with what has arrived of
    /// each: when they will be in. Empty when none is, or when the caller cannot tell.
    public var inFlight: [InFlightRequest]

    public init(now: Double, bandwidthBitsPerSecond: Double?, latency: Double, videos: [VideoState],
                thumbnails: [ThumbnailState] = [], inFlight: [InFlightRequest] = []) {
        self.now = now
        self.bandwidthBitsPerSecond = bandwidthBitsPerSecond
        self.latency = latency
        self.videos = videos
        self.thumbnails = thumbnails
        self.inFlight = inFlight
    }
}

/// A card's thumbnail waiting for the link: what the user sees of the card before (or instead
/// of) its video.
public struct ThumbnailState: Sendable, Hashable {
    /// The card's id.
    public var id: String
    /// Steps from the playing video in the order the user reaches the cards (0: on screen).
    public var distance: Int
    public var bytes: Int

    public init(id: String, distance: Int, bytes: Int) {
        self.id = id
        self.distance = distance
        self.bytes = bytes
    }
}

/// One video as a download policy sees it: where it stands for the user, what is downloaded and
/// played of it, what its segments cost at each variant, and how long people watch it.
public struct VideoState: Sendable {
    public var id: String
    /// Steps from the playing video in the order the user reaches them (0: playing or on screen).
    public var distance: Int
    public var isPlaying: Bool
    /// Media seconds played.
    public var playhead: Double
    /// Segments downloaded, from the first, in order.
    public var downloaded: Int
    /// The variant of each downloaded segment.
    public var downloadedVariants: [Int]
    /// Each segment's media seconds.
    public var segmentDurations: [Double]
    /// Each variant's bitrate (bits per second), lowest first.
    public var bitrates: [Int]
    /// Bytes of each segment at each variant: `sizes[variant][segment]`.
    public var sizes: [[Int]]
    /// The share of viewers still watching at each whole second of the video (1 at 0); nil when
    /// unknown.
    public var retention: [Double]?
    /// The chance the user reaches this video at all (1 for the playing one); nil when unknown.
    public var reachProbability: Double?
    /// Times its play ran dry after it started (waiting for the first frame is not a stall): an
    /// adaptive rule steps down after one, as `ABRPolicy` does.
    public var stalls: Int
    /// The segment a reader of the video waits for now, at the variant its own rules chose (a
    /// player's read-ahead and adaptive rule); nil when none waits. Today's policy grants it as
    /// asked; the link scheduler decides for itself.
    public var asks: SegmentRequest?
    /// Media seconds where this play stops by itself (an autoplay preview's limit); nil when it
    /// plays as long as the user watches. Nothing past it is played.
    public var playsUntil: Double?

    public init(id: String, distance: Int, isPlaying: Bool, playhead: Double, downloaded: Int, downloadedVariants: [Int],
                segmentDurations: [Double], bitrates: [Int], sizes: [[Int]], retention: [Double]? = nil,
                reachProbability: Double? = nil, stalls: Int = 0, asks: SegmentRequest? = nil, playsUntil: Double? = nil) {
        self.id = id
        self.distance = distance
        self.isPlaying = isPlaying
        self.playhead = playhead
        self.downloaded = downloaded
        self.downloadedVariants = downloadedVariants
        self.segmentDurations = segmentDurations
        self.bitrates = bitrates
        self.sizes = sizes
        self.retention = retention
        self.reachProbability = reachProbability
        self.stalls = stalls
        self.asks = asks
        self.playsUntil = playsUntil
    }

    /// Media seconds downloaded ahead of the playhead.
    public var buffered: Double {
        max(0, segmentDurations.prefix(downloaded).reduce(0, +) - playhead)
    }

    /// Whether every segment is downloaded.
    public var isComplete: Bool { downloaded >= segmentDurations.count }

    /// Whether a segment it will play is still to fetch: not complete, and the next segment
    /// starts before `playsUntil`.
    public var needsMore: Bool {
        !isComplete && start(of: downloaded) < (playsUntil ?? .infinity) - 1e-9
    }
}
