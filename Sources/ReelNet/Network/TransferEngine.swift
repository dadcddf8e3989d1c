import Foundation
import ReelCore
import ReelManifest

/// Every HTTP transfer of a process runs here: one dedicated thread driving libcurl's multi
/// interface, so connections (and HTTP/2 sessions) are pooled and reused across requests and
/// videos. Readers block on their own threads; the transfer thread never waits for a reader.
/// One engine serves a `ReelStack` and everything made from it; dropping the last reference stops
/// its thread.
public final class TransferEngine: Sendable {
    /// Counters over the engine's life, for reports and tests.
    public struct Statistics: Sendable, Hashable {
        public var requests = 0
        public var attempts = 0
        public var retries = 0
        public var newConnections = 0
        public var bytes: Int64 = 0
        public var failures = 0
    }

    private let core: TransferCore

    public var options: NetworkOptions { core.options }

    /// Measures the network from this engine's segment and media transfers.
    public var meter: BandwidthMeter { core.meter }

    /// An engine whose transfers feed `meter` (by default a meter starting from the
    /// configuration's default estimate).
    public init(options: NetworkOptions = NetworkOptions(), meter: BandwidthMeter? = nil) {
        core = TransferCore(options: options, meter: meter ?? BandwidthMeter(config: ReelConfig()))
    }

    deinit {
        core.requestStop()
    }

    /// Starts a GET for `spec`; its bytes arrive in the returned stream.
    func start(_ spec: DataSpec) -> TransferStream { core.start(spec) }

    /// Stops the transfer feeding `stream`; its reader gets a `.cancelled` error.
    func cancel(_ stream: TransferStream) { core.cancel(stream) }

    public var statistics: Statistics { core.statistics }

    /// Cancels every transfer and stops the thread. Blocks until it has stopped.
    @available(*, noasync, message: "blocks until the transfer thread exits")
    public func shutdown() { core.shutdown() }
}
