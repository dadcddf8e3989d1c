/// `network.*`: the libcurl transfer engine.
public struct NetworkSettings: ConfigSection {
    @Setting("Time allowed to connect to a host, in milliseconds.", .range(1...600_000))
    public var connectTimeoutMs = 5000

    @Setting("A transfer slower than this many bytes per second for lowSpeedTimeMs is aborted.", .atLeast(0))
    public var lowSpeedLimitBytesPerSecond = 1024

    @Setting("How long a transfer may stay below lowSpeedLimitBytesPerSecond, in milliseconds.", .range(1...3_600_000))
    public var lowSpeedTimeMs = 4_000

    @Setting("Retries of a failed request before giving up.", .range(0...100))
    public var maxRetries = 3

    @Setting("Backoff before the first retry in milliseconds; doubles on each retry.", .range(0...600_000))
    public var retryBackoffMs = 100

    @Setting("Open connections per host at most.", .range(1...256))
    public var maxConnectionsPerHost = 6

    @Setting("Use HTTP/2 where the server offers it.")
    public var http2 = true

    @Setting("User-Agent header of every request.", .headerValue)
    public var userAgent = "Reel/\(ReelVersion.current)"

    @Setting("Bytes a transfer buffers ahead of its reader before it pauses (back-pressure).", .range(16_384...268_435_456))
    public var readBufferHighWaterBytes = 1 << 20

    @Setting("Buffered bytes below which a paused transfer resumes.", .range(0...268_435_456))
    public var readBufferLowWaterBytes = 256 << 10

    public init() {}
}
