import CAVCodec
import CAVFormat
import CAVUtil
import CSWScale
import ReelCore

/// Converts a decoded frame to another pixel format at its own size with libswscale: RGB for a
/// PNG thumbnail, RGBA for a screen. The corresponding C function is `sws_scale`.
enum FrameConverter {
    /// A new frame holding `frame`'s picture in `format`, or to `width` x `height` when given.
    static func convert(_ frame: Frame, to format: AVPixelFormat, width: Int? = nil, height: Int? = nil) throws -> Frame {
        let sourceWidth = Int32(frame.width), sourceHeight = Int32(frame.height)
        let targetWidth = Int32(width ?? frame.width), targetHeight = Int32(height ?? frame.height)
        guard sourceWidth > 0, sourceHeight > 0, targetWidth > 0, targetHeight > 0 else {
            throw ReelError(.encodeFailed, "cannot convert an empty picture")
        }
        let target = Frame()
        target.pointer.pointee.width = targetWidth
        target.pointer.pointee.height = targetHeight
        target.pointer.pointee.format = format.rawValue
        guard av_frame_get_buffer(target.pointer, 0) >= 0 else { throw ReelError(.encodeFailed, "av_frame_get_buffer failed") }
        guard let scaler = sws_getContext(sourceWidth, sourceHeight, frame.pixelFormat, targetWidth, targetHeight, format,
                                          SWS_BILINEAR, nil, nil, nil) else {
            throw ReelError(.encodeFailed, "sws_getContext cannot convert \(Self.name(frame.pixelFormat)) to \(Self.name(format))")
        }
        defer { sws_freeContext(scaler) }
        if format == frame.pixelFormat { target.pointer.pointee.color_range = frame.pointer.pointee.color_range }
        withUnsafePointer(to: &frame.pointer.pointee.data) { sourcePlanes in
            sourcePlanes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { source in
                withUnsafePointer(to: &frame.pointer.pointee.linesize) { sourceLines in
                    sourceLines.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStride in
                        withUnsafePointer(to: &target.pointer.pointee.data) { targetPlanes in
                            targetPlanes.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                                withUnsafePointer(to: &target.pointer.pointee.linesize) { targetLines in
                                    targetLines.withMemoryRebound(to: Int32.self, capacity: 8) { targetStride in
                                        _ = sws_scale(scaler, source, sourceStride, 0, sourceHeight, planes, targetStride)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return target
    }

    /// FFmpeg's name of a pixel format ("yuv420p").
    static func name(_ format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "pixel format \(format.rawValue)"
    }
}
