import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// A demuxer reading through Reel's data sources: the top-level input is an `AVIOContext` Reel
/// opened itself, and every nested open goes through the `InputBridge`. The corresponding C type
/// is `AVFormatContext`.
final class MediaInput {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var topLevel: UnsafeMutablePointer<AVIOContext>?
    let bridge: InputBridge
    let url: String

    /// A stream as the player sees it, copied out of FFmpeg: it owns its codec parameters, so it
    /// stays valid after the demuxer closes.
    struct Stream {
        var index: Int
        var timeBase: AVRational
        var parameters: StreamParameters
        var averageFrameRate: Double?

        var format: StreamFormat { parameters.format }
        /// The owned copy's C view, valid while this stream is.
        var codecParameters: UnsafePointer<AVCodecParameters> { UnsafePointer(parameters.pointer) }
    }

    /// Opens `url` with `top` as its top-level bytes. `formatName` skips probing when known
    /// ("hls" for playlists). The corresponding C function is `avformat_open_input`.
    init(url: String, top: SourceIO, formatName: String?, options: DemuxOptions, bridge: InputBridge) throws {
        self.bridge = bridge
        self.url = url
        guard let context = avformat_alloc_context() else {
            throw ReelError(.internalFailure, "cannot allocate a demuxer for '\(url)'")
        }
        guard let avio = top.makeContext() else {
            avformat_free_context(context)
            throw ReelError(.internalFailure, "cannot allocate the input of '\(url)'")
        }
        topLevel = avio
        context.pointee.pb = avio
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.opaque = Unmanaged.passUnretained(bridge).toOpaque()
        context.pointee.interrupt_callback.callback = bridgeInterrupt
        context.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(bridge.cancellation).toOpaque()
        context.pointee.probesize = Int64(max(options.probeSizeBytes, 32))
        context.pointee.max_analyze_duration = Int64(options.analyzeDurationMs) * 1000
        // Only http(s) (and files for a local input) reach `io_open`; FFmpeg's own list is empty of
        // everything else as a second line of defence.
        context.pointee.protocol_whitelist = av_strdup(bridge.policy.allowLocalFiles ? "file,http,https,crypto" : "http,https,crypto")
        reel_shim_set_io_hooks(context, bridgeIOOpen, bridgeIOClose)

        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        if formatName == "hls" {
            // The keep-alive path of the HLS demuxer asserts on custom IO; Reel pools connections itself.
            av_dict_set(&dictionary, "http_persistent", "0", 0)
            av_dict_set(&dictionary, "http_multiple", "0", 0)
            av_dict_set(&dictionary, "allowed_extensions", "ALL", 0)
        }
        let inputFormat = formatName.flatMap { av_find_input_format($0) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let status = avformat_open_input(&opened, url, inputFormat, &dictionary)
        if status < 0 {
            // avformat_open_input frees the context on failure; the custom top-level IO is ours.
            SourceIO.free(topLevel)
            topLevel = nil
            throw Self.failure(bridge: bridge, url: url, status: status, during: "opening")
        }
        self.context = opened
    }

    deinit { close() }

    /// Closes the demuxer and every input it opened, so their requests reach the log before a
    /// report is made; safe to call more than once. Streams read before become invalid.
    /// The corresponding C function is `avformat_close_input`.
    func close() {
        if context != nil { avformat_close_input(&context) }
        SourceIO.free(topLevel)
        topLevel = nil
    }

    /// Probes stream parameters. The corresponding C function is `avformat_find_stream_info`.
    func findStreamInfo() throws {
        let status = avformat_find_stream_info(context, nil)
        if status < 0 { throw Self.failure(bridge: bridge, url: url, status: status, during: "probing") }
    }

    var streams: [Stream] {
        guard let context else { return [] }
        return (0..<Int(context.pointee.nb_streams)).compactMap { index in
            guard let stream = context.pointee.streams[index], let parameters = stream.pointee.codecpar,
                  let copy = try? StreamParameters(copying: parameters, timeBase: stream.pointee.time_base) else { return nil }
            let rate = stream.pointee.avg_frame_rate
            return Stream(
                index: index, timeBase: stream.pointee.time_base, parameters: copy,
                averageFrameRate: rate.den > 0 && rate.num > 0 ? Double(rate.num) / Double(rate.den) : nil)
        }
    }

    /// The demuxer's name ("hls", "mpegts"), nil before open.
    var formatName: String? {
        context?.pointee.iformat.map { String(cString: $0.pointee.name) }
    }

    /// The input's duration in seconds, when FFmpeg knows it.
    var durationSeconds: Double? {
        guard let context, context.pointee.duration != reel_shim_av_nopts_value, context.pointee.duration > 0 else { return nil }
        return Double(context.pointee.duration) / Double(AV_TIME_BASE)
    }

    /// A stream's average frame rate as a fraction, nil when unknown.
    func averageFrameRate(_ index: Int) -> (num: Int, den: Int)? {
        guard let context, index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index] else { return nil }
        let rate = stream.pointee.avg_frame_rate
        return rate.num > 0 && rate.den > 0 ? (Int(rate.num), Int(rate.den)) : nil
    }

    /// The frame rate FFmpeg's tools assume for a stream (what `ffmpeg` encodes a copy at), as a
    /// fraction; nil when it cannot tell. The corresponding C function is `av_guess_frame_rate`.
    func guessedFrameRate(_ index: Int) -> (num: Int, den: Int)? {
        guard let context, index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index] else { return nil }
        let rate = av_guess_frame_rate(context, stream, nil)
        return rate.num > 0 && rate.den > 0 ? (Int(rate.num), Int(rate.den)) : nil
    }

    /// Where `ffmpeg -i INPUT -map 0:v:<stream>` counts output times from, in seconds, once
    /// probed: the input's start (its earliest stream's first timestamp), or for MPEG-TS media
    /// (`transportStream`: a TS file or TS segments, whose format has timestamp
    /// discontinuities) the start of `stream` alone when later, as ffmpeg corrects it for the
    /// streams it reads. Nil when FFmpeg does not know.
    func startSeconds(reading stream: Int, transportStream: Bool) -> Double? {
        guard let context, context.pointee.start_time != reel_shim_av_nopts_value else { return nil }
        var start = context.pointee.start_time
        if transportStream, let format = context.pointee.iformat, format.pointee.flags & AVFMT_TS_DISCONT != 0,
           stream < Int(context.pointee.nb_streams), let video = context.pointee.streams[stream],
           video.pointee.start_time != reel_shim_av_nopts_value {
            let own = av_rescale_q(video.pointee.start_time, video.pointee.time_base, AVRational(num: 1, den: AV_TIME_BASE))
            start = max(start, own)
        }
        return Double(start) / Double(AV_TIME_BASE)
    }

    /// The stream FFmpeg ranks best for a media type. The corresponding C function is `av_find_best_stream`.
    func bestStream(_ type: AVMediaType) -> Int? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// The first stream of a media type. `av_find_best_stream` skips audio whose sample rate is
    /// not known yet (no stream-info probe); its decoder learns it from the first ADTS header.
    func firstStream(_ type: StreamFormat.MediaType) -> Int? {
        streams.first { $0.format.mediaType == type }?.index
    }

    /// Tells the demuxer to drop every stream but `keep` (an HLS demuxer then skips their playlists).
    func discardAll(except keep: Set<Int>) {
        guard let context else { return }
        for index in 0..<Int(context.pointee.nb_streams) where !keep.contains(index) {
            context.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
        }
    }

    enum ReadResult: Equatable {
        case packet
        case endOfStream
        /// A read failed; the caller counts it and may read on (mid-stream corruption).
        case failed(Int32)
    }

    /// Reads the next packet. The corresponding C function is `av_read_frame`.
    func read(into packet: Packet) throws -> ReadResult {
        let status = av_read_frame(context, packet.pointer)
        if status >= 0 { return .packet }
        if status == AVErrorCode.endOfFile.rawValue { return .endOfStream }
        if status == AVErrorCode.exit.rawValue || bridge.cancellation.isCancelled {
            throw bridge.gaveUp ?? ReelError(.cancelled, "playback of '\(url)' cancelled")
        }
        if status == AVErrorCode.tryAgain.rawValue { return .failed(status) }
        return .failed(status)
    }

    /// The most telling error for a failed FFmpeg call: the bridge's own (HTTP 404 on a URL, a
    /// refused scheme) when it has one, else FFmpeg's code.
    static func failure(bridge: InputBridge, url: String, status: Int32, during step: String) -> ReelError {
        if let gaveUp = bridge.gaveUp { return gaveUp }
        if let cause = bridge.errors.last {
            return cause
        }
        if status == AVErrorCode.exit.rawValue { return ReelError(.cancelled, "\(step) '\(url)' cancelled") }
        let code: ReelError.Code = status == AVErrorCode.invalidData.rawValue ? .openFailed : .demuxFailed
        return ReelError(code, "\(step) '\(url)' failed: \(AVErrorCode(status))", cause: AVErrorCode(status))
    }
}
