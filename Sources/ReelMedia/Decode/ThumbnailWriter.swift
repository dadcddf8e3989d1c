import CAVCodec
import CAVFormat
import CAVUtil
import CSWScale
import Foundation
import ReelCore

/// Writes a decoded frame as a PNG: converted to RGB24 by libswscale, encoded by FFmpeg's PNG
/// encoder (`PNGEncoder`). The corresponding C function is `sws_scale`.
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
        return try PNGEncoder.encode(rgb, format: AV_PIX_FMT_RGB24)
    }
}
