/// `feed.*`: the feed's data file and its overall shape.
public struct FeedSettings: ConfigSection {
    @Setting("The feed catalog (video-feed.json) read by the feed commands.")
    public var catalogPath = "Samples/video-feed.json"

    @Setting("Widest feed column in points; the feed is centred on wider screens.", .range(1...100_000))
    public var maxContentWidth = 768

    @Setting("Quality filled into {@quality} of thumbnail URLs.", .range(1...100))
    public var thumbnailQuality = 80

    public init() {}
}
