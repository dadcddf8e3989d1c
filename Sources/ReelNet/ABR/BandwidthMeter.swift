import ReelCore

/// The process's (or a session's) bandwidth meter: the transfer engine feeds it a sample per
/// metered transfer (segments and media files, playback and prefetch alike; cache hits never
/// reach the network, so never the meter), and variant choices read its estimate. A thin
/// thread-safe wrapper around the pure `BandwidthEstimator`.
public final class BandwidthMeter: Sendable {
    private let estimator: Locked<BandwidthEstimator>
    /// The adaptive plays on this link, each with whether its playhead moves now.
    private let plays = Locked<[ObjectIdentifier: @Sendable () -> Bool]>([:])
    /// Changed after every sample, for whoever waits for measurements (tests).
    public let changes = ChangeSignal()

    package init(initialBitsPerSecond: Int, parameters: BandwidthEstimator.Parameters, initialIsMeasured: Bool) {
        estimator = Locked(BandwidthEstimator(initialBitsPerSecond: initialBitsPerSecond, parameters: parameters,
                                              initialIsMeasured: initialIsMeasured))
    }

    /// A meter starting from a configured guess.
    public convenience init(initialBitsPerSecond: Int, parameters: BandwidthEstimator.Parameters = .init()) {
        self.init(initialBitsPerSecond: initialBitsPerSecond, parameters: parameters, initialIsMeasured: false)
    }

    /// A meter as the configuration describes it: starting from `initialKbps` (a remembered
    /// estimate) or else `device.bandwidthEstimateKbps`, with the `abr.meter.*` window.
    public convenience init(config: ReelConfig, initialKbps: Int? = nil) {
        self.init(initialBitsPerSecond: (initialKbps ?? config.device.bandwidthEstimateKbps) * 1000,
                  parameters: BandwidthEstimator.Parameters(config.abr.meter), initialIsMeasured: initialKbps != nil)
    }

    /// One sample: `bytes` arrived over `elapsed` of transfer time.
    public func add(bytes: Int64, elapsed: Duration) {
        estimator.withLock { $0.add(bytes: bytes, elapsed: elapsed) }
        changes.changed()
    }

    /// One request's latency (request sent to first response byte), for any network request.
    public func addLatency(_ latency: Duration) {
        estimator.withLock { $0.addLatency(latency) }
    }

    /// The latency estimate now (zero before any request was answered).
    public var latency: Duration { estimator.withLock { $0.latency } }

    /// The transfer time every sample so far adds up to (from first bytes, latency apart).
    public var measuredTime: Duration { estimator.withLock { $0.measuredTime } }

    /// The estimate now, in bits per second.
    public var bitsPerSecond: Int { estimator.withLock { $0.bitsPerSecond } }

    /// The estimate once it rests on a measurement (`BandwidthEstimator.measuredBitsPerSecond`).
    package var measuredBitsPerSecond: Int? { estimator.withLock { $0.measuredBitsPerSecond } }

    /// `play` reads from this link for as long as it has not `leave`n; `playing` says whether its
    /// playhead moves (only those share the link with a rule deciding now).
    public func join(_ play: AnyObject, playing: @escaping @Sendable () -> Bool) {
        plays.withLock { $0[ObjectIdentifier(play)] = playing }
    }

    /// `play` no longer reads from this link.
    public func leave(_ play: AnyObject) {
        _ = plays.withLock { $0.removeValue(forKey: ObjectIdentifier(play)) }
    }

    /// The joined plays whose playheads move now.
    public var playing: Int {
        // Asked outside the lock: each answer takes its player's own.
        plays.withLock { Array($0.values) }.filter { $0() }.count
    }

    /// The estimate now, for reports.
    public var snapshot: BandwidthEstimate {
        estimator.withLock {
            BandwidthEstimate(estimateKbps: ($0.bitsPerSecond + 500) / 1000, samples: $0.samples, measured: $0.isMeasured,
                              initialKbps: ($0.initialBitsPerSecond + 500) / 1000, latencyMs: $0.latency.milliseconds)
        }
    }
}
