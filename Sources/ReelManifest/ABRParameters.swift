import ReelCore

/// What the adaptive rule is tuned by: the share of the estimate a variant may use, whether it
/// switches mid-play, and its buffer thresholds (from the `abr.*` keys).
public struct ABRParameters: Sendable, Hashable {
    public var safetyFactor: Double
    /// Switch at segment boundaries; false keeps the start variant.
    public var switching: Bool
    /// Media ahead of the playhead needed to switch up.
    public var minBufferForUp: Duration
    /// How long the estimate must keep allowing a higher variant before an up-switch.
    public var upHold: Duration
    /// Below this much media ahead at a segment boundary, switch down to what the estimate sustains.
    public var lowBuffer: Duration
    /// The last segment's own throughput counts for this long after it was measured.
    public var throughputMaxAge: Duration
    /// The segment duration assumed before a variant's media playlist is read.
    public var startSegment: Duration

    public init(safetyFactor: Double = 0.75, switching: Bool = true, minBufferForUp: Duration = .milliseconds(1500),
                upHold: Duration = .seconds(2), lowBuffer: Duration = .seconds(1), throughputMaxAge: Duration = .seconds(4),
                startSegment: Duration = .seconds(2)) {
        self.safetyFactor = min(1, max(0.01, safetyFactor))
        self.switching = switching
        self.minBufferForUp = minBufferForUp
        self.upHold = upHold
        self.lowBuffer = lowBuffer
        self.throughputMaxAge = throughputMaxAge
        self.startSegment = max(.milliseconds(100), startSegment)
    }

    /// The parameters the `abr.*` keys describe.
    public init(_ settings: ABRSettings) {
        self.init(safetyFactor: settings.safetyFactor, switching: settings.switching.enabled,
                  minBufferForUp: .milliseconds(settings.switching.minBufferForUpMs),
                  upHold: .milliseconds(settings.switching.upHoldMs), lowBuffer: .milliseconds(settings.switching.lowBufferMs),
                  throughputMaxAge: .milliseconds(settings.switching.throughputMaxAgeMs),
                  startSegment: .milliseconds(settings.startSegmentMs))
    }

    /// The highest peak bitrate a variant may have with `estimate` bits per second measured and
    /// `latency` per request, for segments of `segment` (nil: `startSegment`): fetching one, the
    /// latency plus its bits over the estimate, takes at most `safetyFactor` of its play time.
    /// From `latency + bitrate * segment / estimate <= safetyFactor * segment`:
    /// `bitrate <= estimate * (safetyFactor - latency / segment)`; 0 when the latency alone is
    /// too much (the lowest variant is then chosen).
    public func affordable(_ estimate: Int, latency: Duration = .zero, segment: Duration? = nil) -> Int {
        let seconds = (segment ?? startSegment).seconds
        let share = seconds > 0 ? safetyFactor - latency.seconds / seconds : safetyFactor
        return Int((Double(estimate) * max(0, share)).rounded(.down))
    }
}
