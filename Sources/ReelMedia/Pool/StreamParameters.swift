import CAVCodec
import CAVFormat
import CAVUtil
import ReelCore

/// A stream's codec parameters copied out of its demuxer, so a pooled decoder on another thread
/// can open from them while the demuxer reads on. The corresponding C type is `AVCodecParameters`.
// @unchecked Sendable: the copy is written once in `init` and only read afterwards
// (`avcodec_parameters_to_context` takes it const); `deinit` frees it when nobody holds it.
public final class StreamParameters: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVCodecParameters>
    /// The stream's time base, for the decoder's `pkt_timebase`.
    let timeBase: AVRational
    /// What the stream is, as far as sharing a decoder goes.
    public let format: StreamFormat

    /// Copies `parameters`. The corresponding C function is `avcodec_parameters_copy`.
    init(copying parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws {
        guard let copy = avcodec_parameters_alloc() else {
            throw ReelError(.internalFailure, "avcodec_parameters_alloc failed: out of memory")
        }
        let status = avcodec_parameters_copy(copy, parameters)
        if status < 0 {
            var pointer: UnsafeMutablePointer<AVCodecParameters>? = copy
            avcodec_parameters_free(&pointer)
            throw ReelError(.internalFailure, "avcodec_parameters_copy failed", cause: AVErrorCode(status))
        }
        self.pointer = copy
        self.timeBase = timeBase
        self.format = Decoder.format(of: copy)
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&pointer)
    }
}
