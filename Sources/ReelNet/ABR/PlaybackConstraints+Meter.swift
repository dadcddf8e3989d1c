import ReelCore
import ReelManifest

extension PlaybackConstraints {
    /// The constraints for a choice made now: with `adaptive` and a meter, the bandwidth is what
    /// the meter's estimate and latency afford for a segment of `startSegment`.
    public func now(meter: BandwidthMeter?) -> PlaybackConstraints {
        guard let adaptive, let meter else { return self }
        var current = self
        current.bandwidthBitsPerSecond = adaptive.affordable(meter.bitsPerSecond, latency: meter.latency)
        return current
    }
}
