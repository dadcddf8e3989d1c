/// `network.*`: the libcurl transfer engine.
public struct NetworkSettings: ConfigSection {
    /// `network.cmcd.*`: Common Media Client Data (CTA-5004) on every request.
    public struct CMCD: ConfigSection {
        @Setting("Send Common Media Client Data (CTA-5004) with every request: the session, the content, what the object is, the buffer, bitrate and measured throughput, whether it is needed to start, the next object, and a prefetch marker (com.reel-prefetch).")
        public var enabled = false

        @Setting("How CMCD travels: \"header\" (the CMCD-Object, -Request, -Session and -Status headers; URLs and cache keys stay as they are) or \"query\" (a CMCD= query argument, what a browser player sends to avoid a CORS preflight).", .oneOf(["header", "query"]))
        public var mode = "header"

        @Setting("The CMCD session id (sid); empty: a new random one per run.", .headerValue)
        public var sessionID = ""

        public init() {}
    }

    public var cmcd = CMCD()

    @Setting("Time allowed to connect to a host, in milliseconds.", .range(1...600_000))
    public var connectTimeoutMs = 5000

    @Setting("A transfer slower than this many bytes per second for lowSpeedTimeMs is aborted.", .atLeast(0))
    public var lowSpeedLimitBytesPerSecond = 1024

    @Setting("How long a transfer may stay below lowSpeedLimitBytesPerSecond, in milliseconds.", .range(1...3_600_000))
    public var lowSpeedTimeMs = 4_000

    @Setting("Retries of a failed request before giving up.", .range(0...100))
    public var maxRetries = 3

    @Setting("Retries of a request whose transfer stalled (below the low-speed limit for lowSpeedTimeMs): a stalled segment costs one timeout and this many more.", .range(0...100))
    public var stallRetries = 1

    @Setting("Largest playlist or MPD body accepted, in bytes; a larger one is cut with an error naming the URL.", .range(1024...1_073_741_824))
    public var maxManifestBytes = 32 << 20

    @Setting("Largest segment or init section body accepted, in bytes; a larger (or endless) one is cut with an error naming the URL.", .range(65_536...17_179_869_184))
    public var maxSegmentBytes = 256 << 20

    @Setting("Largest decryption key body accepted, in bytes.", .range(16...1_048_576))
    public var maxKeyBytes = 4096

    @Setting("Segments in a row a play may fail to fetch before it ends with the errors it met (a live playlist too).", .range(1...1000))
    public var maxConsecutiveFailures = 3

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
