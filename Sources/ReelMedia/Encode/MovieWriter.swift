import CAVCodec
import CAVFormat
import CAVUtil
import CSWScale
import Foundation
import ReelCore

/// Writes RGBA pictures of one size into a movie at a constant frame rate, with libavcodec (H.264
/// by libx264 when FFmpeg has it, MPEG-4 part 2 otherwise) and libavformat (the container from
/// the file's extension: `.mp4`, `.mkv`): what a screen recording needs. Blocking: use it on a
/// thread of its own. The corresponding C functions are `avcodec_send_frame` and
/// `av_interleaved_write_frame`.
public final class MovieWriter {
    /// The movie's size: the pictures' size rounded down to even numbers (4:2:0 needs them).
    public let width: Int
    public let height: Int
    public let framesPerSecond: Int
    /// Pictures appended so far.
    public private(set) var frames = 0
    /// The encoder's name ("libx264", "mpeg4").
    public let encoder: String
    private let path: String
    private let sourceWidth: Int
    private let sourceHeight: Int
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let scaler: OpaquePointer
    private let picture = Frame()
    private let packet = Packet()
    private var finished = false

    /// Opens `path` for pictures of `width` x `height` at `framesPerSecond`; throws naming the
    /// file when it cannot be written or FFmpeg has no encoder.
    public init(path: String, width: Int, height: Int, framesPerSecond: Int = 30) throws {
        guard width >= 2, height >= 2, width <= 8192, height <= 8192, (1...240).contains(framesPerSecond) else {
            throw ReelError(.invalidInput, "cannot record \(width)x\(height) pictures at \(framesPerSecond) fps into '\(path)'")
        }
        FFmpegLog.install()
        self.path = path
        sourceWidth = width
        sourceHeight = height
        self.width = width & ~1
        self.height = height & ~1
        self.framesPerSecond = framesPerSecond
        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&context, nil, nil, path)
        guard status >= 0, let context else {
            throw ReelError(.invalidInput, "cannot record into '\(path)': FFmpeg knows no container for its extension",
                            cause: AVErrorCode(status))
        }
        output = context
        let found = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4)
        guard let found, let codec = avcodec_alloc_context3(found), let stream = avformat_new_stream(context, nil) else {
            avformat_free_context(context)
            throw ReelError(.encodeFailed, "FFmpeg has neither a libx264 nor an MPEG-4 encoder")
        }
        self.codec = codec
        self.stream = stream
        encoder = String(cString: found.pointee.name)
        codec.pointee.width = Int32(self.width)
        codec.pointee.height = Int32(self.height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = AVRational(num: 1, den: Int32(framesPerSecond))
        codec.pointee.framerate = AVRational(num: Int32(framesPerSecond), den: 1)
        codec.pointee.gop_size = Int32(framesPerSecond * 2)
        codec.pointee.thread_count = 1
        if found.pointee.id == AV_CODEC_ID_MPEG4 { codec.pointee.bit_rate = 4_000_000 }
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        var options: OpaquePointer?
        if encoder == "libx264" {
            // A recording made while the feed plays on the same cores: a fast preset.
            av_dict_set(&options, "preset", "veryfast", 0)
            av_dict_set(&options, "crf", "23", 0)
        }
        status = avcodec_open2(codec, found, &options)
        av_dict_free(&options)
        guard let scaler = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(self.width), Int32(self.height),
                                          AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil) else {
            Self.free(codec: codec, output: context)
            throw ReelError(.encodeFailed, "sws_getContext cannot convert RGBA to yuv420p")
        }
        self.scaler = scaler
        // Fully initialized from here: a throw runs `deinit`, which frees everything.
        func fail(_ message: String, _ status: Int32) -> ReelError {
            finished = true
            return ReelError(.encodeFailed, message, cause: AVErrorCode(status))
        }
        guard status >= 0 else { throw fail("cannot open the \(encoder) encoder for '\(path)'", status) }
        status = avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        guard status >= 0 else { throw fail("cannot describe the video stream of '\(path)'", status) }
        stream.pointee.time_base = codec.pointee.time_base
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            status = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
            guard status >= 0 else {
                finished = true
                throw ReelError(.invalidInput, "cannot write '\(path)'", cause: AVErrorCode(status))
            }
        }
        status = avformat_write_header(context, nil)
        guard status >= 0 else { throw fail("cannot write the header of '\(path)'", status) }
        picture.pointer.pointee.width = Int32(self.width)
        picture.pointer.pointee.height = Int32(self.height)
        picture.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        status = av_frame_get_buffer(picture.pointer, 0)
        guard status >= 0 else { throw fail("av_frame_get_buffer failed", status) }
    }

    deinit {
        if !finished { try? finish() }
        sws_freeContext(scaler)
        Self.free(codec: codec, output: output)
    }

    /// Appends one picture: `width` x `height` RGBA pixels (as given to `init`), rows `stride`
    /// bytes apart, shown for one frame's time.
    public func append(rgba pixels: UnsafeRawBufferPointer, stride: Int) throws {
        guard !finished, let codec else { throw ReelError(.encodeFailed, "'\(path)' is already finished") }
        guard stride >= sourceWidth * 4, pixels.count >= stride * (sourceHeight - 1) + sourceWidth * 4,
              let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ReelError(.encodeFailed, "a picture of \(pixels.count) bytes is not \(sourceWidth)x\(sourceHeight) RGBA")
        }
        var status = av_frame_make_writable(picture.pointer)
        guard status >= 0 else { throw ReelError(.encodeFailed, "av_frame_make_writable failed", cause: AVErrorCode(status)) }
        var source: [UnsafePointer<UInt8>?] = [base, nil, nil, nil]
        var sourceStride: [Int32] = [Int32(stride), 0, 0, 0]
        withUnsafeMutablePointer(to: &picture.pointer.pointee.data) { planes in
            planes.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { target in
                withUnsafeMutablePointer(to: &picture.pointer.pointee.linesize) { lines in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { targetStride in
                        _ = sws_scale(scaler, &source, &sourceStride, 0, Int32(sourceHeight), target, targetStride)
                    }
                }
            }
        }
        picture.pointer.pointee.pts = Int64(frames)
        status = avcodec_send_frame(codec, picture.pointer)
        guard status >= 0 else { throw ReelError(.encodeFailed, "encoding frame \(frames) of '\(path)' failed", cause: AVErrorCode(status)) }
        frames += 1
        try drain()
    }

    /// Flushes the encoder and writes the file's end; later appends fail. The corresponding C
    /// function is `av_write_trailer`.
    public func finish() throws {
        guard !finished, let codec, let output else { return }
        finished = true
        var status = avcodec_send_frame(codec, nil)
        if status >= 0 { try drain() }
        status = av_write_trailer(output)
        if output.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&output.pointee.pb) }
        guard status >= 0 else { throw ReelError(.encodeFailed, "cannot finish '\(path)'", cause: AVErrorCode(status)) }
    }

    /// Writes every packet the encoder has ready.
    private func drain() throws {
        guard let codec, let output else { return }
        while true {
            let status = avcodec_receive_packet(codec, packet.pointer)
            if status == AVErrorCode.tryAgain.rawValue || status == AVErrorCode.endOfFile.rawValue { return }
            guard status >= 0 else { throw ReelError(.encodeFailed, "encoding '\(path)' failed", cause: AVErrorCode(status)) }
            av_packet_rescale_ts(packet.pointer, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(output, packet.pointer)
            packet.unref()
            guard written >= 0 else { throw ReelError(.encodeFailed, "cannot write to '\(path)'", cause: AVErrorCode(written)) }
        }
    }

    private static func free(codec: UnsafeMutablePointer<AVCodecContext>?, output: UnsafeMutablePointer<AVFormatContext>?) {
        var codec = codec
        avcodec_free_context(&codec)
        if let output {
            if output.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0, output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
            avformat_free_context(output)
        }
    }
}
