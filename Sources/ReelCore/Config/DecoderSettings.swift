/// `decoder.*`: the FFmpeg decoder pool.
public struct DecoderSettings: ConfigSection {
    @Setting("Decoders kept in the pool.", .range(1...64))
    public var poolSize = 4

    @Setting("Decoders kept in the pool on a low-end device.", .range(1...64))
    public var lowEndPoolSize = 1

    @Setting("Threads per decoder (FFmpeg thread_count); 0 lets FFmpeg choose.", .range(0...64))
    public var threads = 1

    @Setting("Bytes FFmpeg may read to probe a stream (probesize).", .range(32...100_000_000))
    public var probeSizeBytes = 32_768

    @Setting("Media duration FFmpeg may analyze to find stream info, in milliseconds (analyzeduration).", .range(0...60_000))
    public var analyzeDurationMs = 500

    @Setting("Also call avformat_find_stream_info after opening; off by default: the HLS demuxer has probed the first segment and decoders start from in-band parameters, so it only costs startup time.")
    public var findStreamInfo = false

    public init() {}
}
