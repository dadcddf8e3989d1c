import ReelCore

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
    /// Backoff before the first retry; doubles for each later one.
    public var retryBackoffMs: Int
    public var maxConnectionsPerHost: Int
    /// Ask for HTTP/2 over TLS when the server offers it (plain HTTP stays HTTP/1.1).
    public var http2: Bool
    public var userAgent: String
    /// The reader buffers at most this much before the transfer pauses (back-pressure).
    public var readBufferHighWater: Int
    public var readBufferLowWater: Int

    /// The options the `network.*` configuration keys describe (their defaults when not given).
    public init(_ settings: NetworkSettings = NetworkSettings()) {
        connectTimeoutMs = settings.connectTimeoutMs
        lowSpeedLimitBytesPerSecond = settings.lowSpeedLimitBytesPerSecond
        lowSpeedTimeMs = settings.lowSpeedTimeMs
        maxRetries = settings.maxRetries
        retryBackoffMs = settings.retryBackoffMs
        maxConnectionsPerHost = settings.maxConnectionsPerHost
        http2 = settings.http2
        userAgent = settings.userAgent
        readBufferHighWater = settings.readBufferHighWaterBytes
        readBufferLowWater = settings.readBufferLowWaterBytes
    }
}
