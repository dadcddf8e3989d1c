/// `device.*`: what the device can do and its screen.
public struct DeviceSettings: ConfigSection {
    @Setting("Low-end device: nothing autoplays, one decoder, one prefetch at a time, and only the cards on screen are prefetched.")
    public var isLowEnd = false

    @Setting("Screen width in points.", .range(1...100_000))
    public var screenWidth = 390

    @Setting("Screen height in points.", .range(1...100_000))
    public var screenHeight = 844

    @Setting("Pixels per point, to size thumbnail requests.", .range(0.5...8.0))
    public var scale = 3.0

    @Setting("Widest video rendition to pick, in pixels.", .range(16...16_384))
    public var maxVideoWidth = 1080

    @Setting("Tallest video rendition to pick, in pixels.", .range(16...16_384))
    public var maxVideoHeight = 1920

    @Setting("Bandwidth estimate before any measurement, in kilobits per second.", .range(1...10_000_000))
    public var bandwidthEstimateKbps = 8000

    @Setting("Widest video rendition a low-end device picks, in pixels (within maxVideoWidth).", .range(16...16_384))
    public var lowEndMaxVideoWidth = 540

    @Setting("Tallest video rendition a low-end device picks, in pixels (within maxVideoHeight).", .range(16...16_384))
    public var lowEndMaxVideoHeight = 960

    public init() {}
}
