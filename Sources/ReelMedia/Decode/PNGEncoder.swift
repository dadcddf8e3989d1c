import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import ReelCore

/// Encodes pictures as PNG with FFmpeg's PNG encoder: decoded frames (through `ThumbnailWriter`)
/// and plain RGBA pixels (a drawn Lottie frame). The corresponding C function is
/// `avcodec_send_frame`.
public enum PNGEncoder {
    /// 8-bit RGBA pixels with straight alpha, rows top to bottom without padding, as a PNG.
    public static func encode(rgba pixels: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384, pixels.count == width * height * 4 else {
            throw ReelError(.encodeFailed, "cannot make a PNG of \(pixels.count) bytes as \(width)x\(height) RGBA")
        }
        let frame = Frame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = AV_PIX_FMT_RGBA.rawValue
        guard av_frame_get_buffer(frame.pointer, 0) >= 0, let plane = frame.pointer.pointee.data.0 else {
            throw ReelError(.encodeFailed, "av_frame_get_buffer failed")
        }
        let stride = Int(frame.pointer.pointee.linesize.0)
        pixels.withUnsafeBytes { source in
            for row in 0..<height {
                (plane + row * stride).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * width * 4,
                                              count: width * 4)
            }
        }
        return try encode(frame, format: AV_PIX_FMT_RGBA)
    }

    /// Encodes a frame already in `format` (RGB24 or RGBA).
    static func encode(_ frame: Frame, format: AVPixelFormat) throws -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), let context = avcodec_alloc_context3(codec) else {
            throw ReelError(.encodeFailed, "FFmpeg has no PNG encoder")
        }
        defer {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&pointer)
        }
        context.pointee.width = frame.pointer.pointee.width
        context.pointee.height = frame.pointer.pointee.height
        context.pointee.pix_fmt = format
        context.pointee.time_base = AVRational(num: 1, den: 25)
        var status = avcodec_open2(context, codec, nil)
        guard status >= 0 else { throw ReelError(.encodeFailed, "cannot open the PNG encoder", cause: AVErrorCode(status)) }
        status = avcodec_send_frame(context, frame.pointer)
        guard status >= 0 else { throw ReelError(.encodeFailed, "PNG encoding failed", cause: AVErrorCode(status)) }
        let packet = Packet()
        status = avcodec_receive_packet(context, packet.pointer)
        guard status >= 0, let data = packet.pointer.pointee.data else {
            throw ReelError(.encodeFailed, "PNG encoding produced nothing", cause: AVErrorCode(status))
        }
        return Array(UnsafeBufferPointer(start: data, count: packet.size))
    }
}
