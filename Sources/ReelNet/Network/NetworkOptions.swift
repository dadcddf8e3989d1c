import ReelCore
import ReelManifest

/// How the transfer engine talks to servers: timeouts, retries, connection limits, buffering.
/// Built from `ReelConfig`'s `network.*` keys, so the defaults are the configuration's own.
public struct NetworkOptions: Sendable, Hashable {
    /// Longest wait for a TCP (and TLS) connection.
    public var connectTimeoutMs: Int
    /// A transfer slower than this many bytes per second over `lowSpeedTimeMs` is a stall.
    public var lowSpeedLimitBytesPerSecond: Int
    public var lowSpeedTimeMs: Int
    /// Further attempts for a GET after a connection error or a 5xx.
    public var maxRetries: Int
    /// Of those, at most this many after a stall (a low-speed timeout).
    public var stallRetries: Int
    /// Largest body accepted per kind of resource (nil: no limit), checked as bytes arrive.
    public var maxManifestBytes: Int64
    public var maxSegmentBytes: Int64
    public var maxKeyBytes: Int64
    /// Failed segments in a row after which a play ends (`InputBridge`'s failure budget).
    public var maxConsecutiveFailures: Int
    /// Backoff before the first retry; doubles for each later one.
    public var retryBackoffMs: Int
    public var maxConnectionsPerHost: Int
    /// Ask for HTTP/2 over TLS when the server offers it (plain HTTP stays HTTP/1.1).
    public var http2: Bool
    public var userAgent: String
    /// The reader buffers at most this much before the transfer pauses (back-pressure).
    public var readBufferHighWater: Int
    public var readBufferLowWater: Int
    /// Common Media Client Data on every request (`network.cmcd.*`).
    public var cmcd: CMCD

    /// `network.cmcd.*` as the engine takes it.
    public struct CMCD: Sendable, Hashable {
        public var enabled = false
        /// "header" or "query".
        public var mode = "header"
        /// Empty: a new session id per transfer engine.
        public var sessionID = ""

        public init() {}
    }

    /// The options the `network.*` configuration keys describe (their defaults when not given).
    public init(_ settings: NetworkSettings = NetworkSettings()) {
        connectTimeoutMs = settings.connectTimeoutMs
        lowSpeedLimitBytesPerSecond = settings.lowSpeedLimitBytesPerSecond
        lowSpeedTimeMs = settings.lowSpeedTimeMs
        maxRetries = settings.maxRetries
        stallRetries = settings.stallRetries
        maxManifestBytes = Int64(settings.maxManifestBytes)
        maxSegmentBytes = Int64(settings.maxSegmentBytes)
        maxKeyBytes = Int64(settings.maxKeyBytes)
        maxConsecutiveFailures = settings.maxConsecutiveFailures
        retryBackoffMs = settings.retryBackoffMs
        maxConnectionsPerHost = settings.maxConnectionsPerHost
        http2 = settings.http2
        userAgent = settings.userAgent
        readBufferHighWater = settings.readBufferHighWaterBytes
        readBufferLowWater = settings.readBufferLowWaterBytes
        cmcd = CMCD()
        cmcd.enabled = settings.cmcd.enabled
        cmcd.mode = settings.cmcd.mode
        cmcd.sessionID = settings.cmcd.sessionID
    }

    /// The largest body accepted for `kind`, or nil for no limit (images are bounded by their
    /// fetch, a plain media file by nothing but the disk cache's cap).
    public func maxBodyBytes(for kind: ResourceKind) -> Int64? {
        switch kind {
        case .playlist: maxManifestBytes
        case .segment, .initSection: maxSegmentBytes
        case .key: maxKeyBytes
        case .image, .media: nil
        }
    }
}
