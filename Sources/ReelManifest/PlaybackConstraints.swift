import ReelCore

/// What the player can show and afford, fed to `VariantSelector`: the picture box, the current
/// bandwidth estimate, and low-end mode with its own smaller box. With `adaptive` set the
/// bandwidth is the bandwidth meter's estimate at the time of the choice (times the safety
/// factor) and the play may switch variants (`ABRController`).
public struct PlaybackConstraints: Sendable, Hashable {
    /// The largest picture worth decoding (the card's size in pixels, or the screen's).
    public var maxWidth: Int
    public var maxHeight: Int
    /// Estimated throughput; nil when unknown (then bandwidth does not limit the choice).
    public var bandwidthBitsPerSecond: Int?
    /// Low-end devices also stay within `lowEndMaxWidth` x `lowEndMaxHeight`.
    public var isLowEnd: Bool
    public var lowEndMaxWidth: Int
    public var lowEndMaxHeight: Int
    /// Adaptive bitrate, when on: how the estimate is used and whether plays switch.
    public var adaptive: ABRParameters?

    public init(
        maxWidth: Int = .max, maxHeight: Int = .max, bandwidthBitsPerSecond: Int? = nil, isLowEnd: Bool = false,
        lowEndMaxWidth: Int = 540, lowEndMaxHeight: Int = 960, adaptive: ABRParameters? = nil
    ) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.bandwidthBitsPerSecond = bandwidthBitsPerSecond
        self.isLowEnd = isLowEnd
        self.lowEndMaxWidth = lowEndMaxWidth
        self.lowEndMaxHeight = lowEndMaxHeight
        self.adaptive = adaptive
    }

    /// The box a variant must fit, as (long side, short side): orientation does not matter, so
    /// a 1080x1920 portrait video fits a 1920x1080 screen box. Low-end mode takes the smaller
    /// of the two boxes side by side.
    public var resolutionBox: (longSide: Int, shortSide: Int) {
        var long = max(maxWidth, maxHeight)
        var short = min(maxWidth, maxHeight)
        if isLowEnd {
            long = min(long, max(lowEndMaxWidth, lowEndMaxHeight))
            short = min(short, min(lowEndMaxWidth, lowEndMaxHeight))
        }
        return (long, short)
    }
}
