import CAVCodec
import CAVFormat
import CAVUtil

/// MD5 of a video frame's planes packed with alignment 1 in the decoder's output format: the
/// hash `ffmpeg -f framemd5` prints. The corresponding C functions are `av_image_copy_to_buffer`
/// and `av_md5_sum`.
struct FrameHasher {
    private var buffer: [UInt8] = []

    /// The frame's MD5 and the bytes hashed, or nil when its planes cannot be packed.
    mutating func md5(of frame: Frame) -> (md5: String, bytes: Int)? {
        let f = frame.pointer
        let format = frame.pixelFormat
        let size = av_image_get_buffer_size(format, f.pointee.width, f.pointee.height, 1)
        guard size > 0 else { return nil }
        if buffer.count < Int(size) { buffer = [UInt8](repeating: 0, count: Int(size)) }
        let copied = withUnsafePointer(to: &f.pointee.data) { planes in
            planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planePointers in
                withUnsafePointer(to: &f.pointee.linesize) { lines in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { linesizes in
                        buffer.withUnsafeMutableBufferPointer { target in
                            av_image_copy_to_buffer(
                                target.baseAddress, size, planePointers, linesizes, format,
                                f.pointee.width, f.pointee.height, 1)
                        }
                    }
                }
            }
        }
        guard copied >= 0 else { return nil }
        var digest = [UInt8](repeating: 0, count: 16)
        buffer.withUnsafeBufferPointer { source in
            av_md5_sum(&digest, source.baseAddress, Int(copied))
        }
        let md5 = digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
        return (md5, Int(copied))
    }
}
