import CAVCodec
import CAVFormat
import CAVUtil
import CSWScale
import Foundation
import ReelCore

/// Writes a decoded frame as a PNG: converted to RGB24 by libswscale, encoded by FFmpeg's PNG
/// encoder. The corresponding C functions are `sws_scale` and `avcodec_send_frame`.
enum ThumbnailWriter {
    static func write(_ frame: Frame, to path: String) throws {
        let png = try encode(frame)
        do {
            try Data(png).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ReelError(.invalidInput, "cannot write thumbnail '\(path)': \(error.localizedDescription)")
        }
    }

    static func encode(_ frame: Frame) throws -> [UInt8] {
        let width = Int32(frame.width), height = Int32(frame.height)
        guard width > 0, height > 0 else { throw ReelError(.encodeFailed, "cannot make a thumbnail of an empty frame") }
        let rgb = Frame()
        rgb.pointer.pointee.width = width
        rgb.pointer.pointee.height = height
        rgb.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        guard av_frame_get_buffer(rgb.pointer, 0) >= 0 else { throw ReelError(.encodeFailed, "av_frame_get_buffer failed") }
        guard let scaler = sws_getContext(width, height, frame.pixelFormat, width, height, AV_PIX_FMT_RGB24,
                                          SWS_BILINEAR, nil, nil, nil) else {
            throw ReelError(.encodeFailed, "sws_getContext cannot convert \(frame.pixelFormat) to RGB")
        }
        defer { sws_freeContext(scaler) }
        withUnsafePointer(to: &frame.pointer.pointee.data) { sourcePlanes in
            sourcePlanes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { source in
                withUnsafePointer(to: &frame.pointer.pointee.linesize) { sourceLines in
                    sourceLines.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStride in
                        withUnsafePointer(to: &rgb.pointer.pointee.data) { targetPlanes in
                            targetPlanes.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { target in
                                withUnsafePointer(to: &rgb.pointer.pointee.linesize) { targetLines in
                                    targetLines.withMemoryRebound(to: Int32.self, capacity: 8) { targetStride in
                                        _ = sws_scale(scaler, source, sourceStride, 0, height, target, targetStride)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), let context = avcodec_alloc_context3(codec) else {
            throw ReelError(.encodeFailed, "FFmpeg has no PNG encoder")
        }
        defer {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&pointer)
        }
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        context.pointee.time_base = AVRational(num: 1, den: 25)
        var status = avcodec_open2(context, codec, nil)
        guard status >= 0 else { throw ReelError(.encodeFailed, "cannot open the PNG encoder", cause: AVErrorCode(status)) }
        status = avcodec_send_frame(context, rgb.pointer)
        guard status >= 0 else { throw ReelError(.encodeFailed, "PNG encoding failed", cause: AVErrorCode(status)) }
        let packet = Packet()
        status = avcodec_receive_packet(context, packet.pointer)
        guard status >= 0, let data = packet.pointer.pointee.data else {
            throw ReelError(.encodeFailed, "PNG encoding produced nothing", cause: AVErrorCode(status))
        }
        return Array(UnsafeBufferPointer(start: data, count: packet.size))
    }
}
