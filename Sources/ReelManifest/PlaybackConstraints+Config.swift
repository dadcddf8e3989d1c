import ReelCore

extension PlaybackConstraints {
    /// The constraints the `device.*` configuration keys describe: the picture box, the
    /// bandwidth estimate, and low-end mode. Playback and prefetch both build them this way, so
    /// they choose the same variant.
    public init(_ device: DeviceSettings) {
        self.init(
            maxWidth: device.maxVideoWidth, maxHeight: device.maxVideoHeight,
            bandwidthBitsPerSecond: device.bandwidthEstimateKbps * 1000, isLowEnd: device.isLowEnd,
            lowEndMaxWidth: device.lowEndMaxVideoWidth, lowEndMaxHeight: device.lowEndMaxVideoHeight)
    }

    /// The constraints the configuration describes: the device's, and with `abr.enabled` the
    /// adaptive rule's parameters (the choice then follows the bandwidth meter). Playback and
    /// prefetch both build them this way.
    public init(_ config: ReelConfig) {
        self.init(config.device)
        if config.abr.enabled { adaptive = ABRParameters(config.abr) }
    }
}
