import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import ReelCore

/// Writes a decoded frame as a PNG: converted to RGB24 (`FrameConverter`), encoded by FFmpeg's
/// PNG encoder (`PNGEncoder`).
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
        guard frame.width > 0, frame.height > 0 else { throw ReelError(.encodeFailed, "cannot make a thumbnail of an empty frame") }
        return try PNGEncoder.encode(try FrameConverter.convert(frame, to: AV_PIX_FMT_RGB24), format: AV_PIX_FMT_RGB24)
    }
}
