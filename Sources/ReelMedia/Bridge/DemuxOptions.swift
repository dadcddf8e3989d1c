import ReelCore

/// How a demuxer opens and probes its input, tuned for startup. Values come from `ReelConfig`'s
/// `decoder.*` keys.
public struct DemuxOptions: Sendable, Hashable {
    /// Bytes the demuxer may read to detect streams (`probesize`); small starts faster.
    public var probeSizeBytes: Int = 32 << 10
    /// Media time the demuxer may analyse for stream parameters (`analyzeduration`).
    public var analyzeDurationMs: Int = 500
    /// Run `avformat_find_stream_info` after opening. Off (the default) still decodes every
    /// sample frame-exactly: the HLS demuxer probes the first segment while opening, and
    /// decoders start from in-band parameter sets; on, it costs 6-17 ms of startup.
    public var findStreamInfo: Bool = false

    public init() {}
}

extension DemuxOptions {
    /// The options the `decoder.*` configuration keys describe.
    public init(_ settings: DecoderSettings) {
        self.init()
        probeSizeBytes = settings.probeSizeBytes
        analyzeDurationMs = settings.analyzeDurationMs
        findStreamInfo = settings.findStreamInfo
    }
}
