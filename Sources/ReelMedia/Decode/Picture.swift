import CAVCodec
import CAVFormat
import CAVUtil
import ReelCore

/// A decoded picture a screen can show: a video frame a player presented, or a still image (a
/// thumbnail). It holds its own reference to FFmpeg's reference-counted buffers, so it stays
/// valid however long it is kept, whatever the decoder does next; its planes are read-only.
// @unchecked Sendable: the AVFrame is filled once in `init` (`av_frame_ref`, or a decoder's output
// nobody else holds) and never written afterwards; FFmpeg never writes a buffer while another
// reference to it exists, so reading the planes from any thread is safe. `deinit` drops the
// reference.
public final class Picture: @unchecked Sendable {
    /// How the planes hold the picture.
    public enum Format: Sendable, Equatable, CustomStringConvertible {
        /// 8-bit Y, U and V planes, chroma at half the width and height (rounded up); the values
        /// are full range (JPEG's `yuvj420p`) or video range (16-235).
        case yuv420p(fullRange: Bool)
        /// Another layout, by FFmpeg's name ("yuv444p", "rgb24"): `rgba()` converts it.
        case other(String)

        public var description: String {
            switch self {
            case .yuv420p(let full): full ? "yuvj420p" : "yuv420p"
            case .other(let name): name
            }
        }
    }

    /// One plane: `rows` rows of `width` bytes each, `stride` bytes apart.
    public struct Plane {
        public let base: UnsafePointer<UInt8>
        public let stride: Int
        public let width: Int
        public let rows: Int
    }

    let frame: Frame
    public let width: Int
    public let height: Int
    public let format: Format
    /// Presentation time in seconds, when the picture is a video frame with one.
    public let time: Double?

    /// A new reference to `frame`'s picture (the decoder may reuse `frame` at once). The
    /// corresponding C function is `av_frame_ref`.
    convenience init(referencing frame: Frame, time: Double?) {
        self.init(owning: Frame(referencing: frame), time: time)
    }

    /// Takes `frame`, which nothing else holds.
    private init(owning frame: Frame, time: Double?) {
        self.frame = frame
        width = frame.width
        height = frame.height
        self.time = time
        switch frame.pixelFormat {
        case AV_PIX_FMT_YUV420P: format = .yuv420p(fullRange: frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG)
        case AV_PIX_FMT_YUVJ420P: format = .yuv420p(fullRange: true)
        default: format = .other(FrameConverter.name(frame.pixelFormat))
        }
    }

    /// Calls `body` with the picture's planes (Y, U, V for `yuv420p`), valid during the call.
    public func withPlanes<R>(_ body: ([Plane]) throws -> R) rethrows -> R {
        try withExtendedLifetime(frame) {
            var planes: [Plane] = []
            guard let descriptor = av_pix_fmt_desc_get(frame.pixelFormat) else { return try body([]) }
            let count = Int(av_pix_fmt_count_planes(frame.pixelFormat))
            let data = frame.pointer.pointee.data, lines = frame.pointer.pointee.linesize
            let pointers = [data.0, data.1, data.2, data.3], strides = [lines.0, lines.1, lines.2, lines.3]
            for index in 0..<min(max(0, count), 4) {
                guard let base = pointers[index] else { break }
                let shift = index == 1 || index == 2 ? Int(descriptor.pointee.log2_chroma_h) : 0
                let bytes = Int(av_image_get_linesize(frame.pixelFormat, Int32(width), Int32(index)))
                planes.append(Plane(base: UnsafePointer(base), stride: Int(strides[index]), width: bytes,
                                    rows: (height + (1 << shift) - 1) >> shift))
            }
            return try body(planes)
        }
    }

    /// The picture as 8-bit RGBA, rows top to bottom without padding (`width * height * 4`
    /// bytes), or scaled to `width` x `height`. The corresponding C function is `sws_scale`.
    public func rgba(width: Int? = nil, height: Int? = nil) throws -> [UInt8] {
        let target = try FrameConverter.convert(frame, to: AV_PIX_FMT_RGBA, width: width, height: height)
        let (columns, rows) = (target.width, target.height)
        guard let plane = target.pointer.pointee.data.0 else { throw ReelError(.encodeFailed, "converting a picture to RGBA gave nothing") }
        let stride = Int(target.pointer.pointee.linesize.0)
        var pixels = [UInt8](repeating: 0, count: columns * rows * 4)
        pixels.withUnsafeMutableBytes { out in
            for row in 0..<rows {
                out.baseAddress!.advanced(by: row * columns * 4).copyMemory(from: plane + row * stride, byteCount: columns * 4)
            }
        }
        return pixels
    }

    /// The picture scaled to `width` x `height`: a `yuv420p` one stays in its layout (for a YUV
    /// texture), any other becomes RGBA. What a screen draws a picture at the size it shows it,
    /// once, rather than scaling it again every frame. The corresponding C function is `sws_scale`.
    public func scaled(width: Int, height: Int) throws -> Picture {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw ReelError(.encodeFailed, "cannot scale a picture to \(width)x\(height)")
        }
        let layout = if case .yuv420p = format { frame.pixelFormat } else { AV_PIX_FMT_RGBA }
        return Picture(owning: try FrameConverter.convert(frame, to: layout, width: width, height: height), time: time)
    }

    /// The largest still image `image(_:name:)` decodes, in pixels (8192 x 8192): a hostile
    /// header cannot make the decoder allocate more.
    public static let maxImagePixels = 8192 * 8192

    /// Decodes a still image (JPEG or PNG, told apart by their first bytes) with FFmpeg's
    /// decoders; `name` (its URL) names it in errors. The corresponding C function is
    /// `avcodec_send_packet`.
    public static func image(_ bytes: [UInt8], name: String) throws -> Picture {
        FFmpegLog.install()
        let codecID: AVCodecID
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            codecID = AV_CODEC_ID_MJPEG
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            codecID = AV_CODEC_ID_PNG
        } else {
            throw ReelError(.decodeFailed, "'\(name)' is not a JPEG or PNG image (\(bytes.count) bytes)")
        }
        guard let codec = avcodec_find_decoder(codecID), let context = avcodec_alloc_context3(codec) else {
            throw ReelError(.decoderUnavailable, "FFmpeg has no decoder for '\(name)'")
        }
        defer {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&pointer)
        }
        context.pointee.max_pixels = Int64(maxImagePixels)
        context.pointee.thread_count = 1
        var status = avcodec_open2(context, codec, nil)
        guard status >= 0 else { throw ReelError(.openFailed, "cannot open the image decoder for '\(name)'", cause: AVErrorCode(status)) }
        let packet = Packet()
        guard av_new_packet(packet.pointer, Int32(bytes.count)) >= 0, let data = packet.pointer.pointee.data else {
            throw ReelError(.decodeFailed, "cannot hold the \(bytes.count) bytes of '\(name)'")
        }
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: bytes.count) }
        status = avcodec_send_packet(context, packet.pointer)
        if status >= 0 { status = avcodec_send_packet(context, nil) }
        guard status >= 0 else { throw ReelError(.decodeFailed, "cannot decode '\(name)'", cause: AVErrorCode(status)) }
        let frame = Frame()
        status = avcodec_receive_frame(context, frame.pointer)
        guard status >= 0, frame.width > 0, frame.height > 0 else {
            throw ReelError(.decodeFailed, "'\(name)' decodes to no picture", cause: status < 0 ? AVErrorCode(status) as (any Error & Sendable)? : nil)
        }
        return Picture(owning: frame, time: nil)
    }
}
