import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import ReelCore

/// What a decoder stream is, as far as reusing a decoder goes: two streams with the same codec
/// and bitstream format (same extradata) can share one flushed `AVCodecContext`.
public struct StreamFormat: Sendable, Hashable, CustomStringConvertible {
    public var codec: String
    public var mediaType: MediaType
    public var width: Int
    public var height: Int
    /// A digest of the codec extradata, 0 when there is none: MPEG-TS H.264 (Annex B) and MP4
    /// H.264 converted to Annex B (`AnnexBFilter`) have none; codecs that keep theirs differ here.
    public var extradataDigest: Int

    public enum MediaType: String, Sendable, Hashable { case video, audio, other }

    public var description: String {
        mediaType == .video ? "\(codec) \(width)x\(height)" : codec
    }
}

/// One FFmpeg decoder: packets in, frames out. The corresponding C type is `AVCodecContext`.
/// Flow control is a value (`SendResult`, `ReceiveResult`); only real failures throw.
public final class Decoder {
    public enum SendResult: Equatable {
        case accepted
        /// The decoder has output waiting: receive frames, then send the same packet again.
        case full
        /// The packet was corrupt; the decoder skipped it (counted, not fatal).
        case rejected(Int32)
    }

    public enum ReceiveResult: Equatable {
        case frame
        case needsInput
        case endOfStream
        /// A frame failed to decode; decoding goes on.
        case failed(Int32)
    }

    private(set) var context: UnsafeMutablePointer<AVCodecContext>
    public let format: StreamFormat
    public let threads: Int

    /// Opens a decoder for a stream. The corresponding C functions are `avcodec_find_decoder`,
    /// `avcodec_parameters_to_context` and `avcodec_open2`.
    init(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational, threads: Int) throws {
        let codecID = parameters.pointee.codec_id
        guard let codec = avcodec_find_decoder(codecID) else {
            throw ReelError(.decoderUnavailable, "no decoder for codec '\(String(cString: avcodec_get_name(codecID)))'")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw ReelError(.internalFailure, "avcodec_alloc_context3 failed")
        }
        self.context = context
        self.threads = threads
        self.format = Self.format(of: parameters)
        var status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.pkt_timebase = timeBase
            context.pointee.thread_count = Int32(threads)
            // Frame threading delays the first frame by a frame per thread; slices do not.
            context.pointee.thread_type = threads == 1 ? 0 : FF_THREAD_SLICE
            status = avcodec_open2(context, codec, nil)
        }
        if status < 0 {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&pointer)
            throw ReelError(.openFailed, "cannot open the \(format.codec) decoder", cause: AVErrorCode(status))
        }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    static func format(of parameters: UnsafePointer<AVCodecParameters>) -> StreamFormat {
        let p = parameters.pointee
        var digest = Hasher()
        if let extradata = p.extradata, p.extradata_size > 0 {
            digest.combine(bytes: UnsafeRawBufferPointer(start: extradata, count: Int(p.extradata_size)))
        }
        let type: StreamFormat.MediaType = switch p.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        default: .other
        }
        return StreamFormat(
            codec: String(cString: avcodec_get_name(p.codec_id)), mediaType: type,
            width: Int(p.width), height: Int(p.height),
            extradataDigest: p.extradata_size > 0 ? digest.finalize() : 0)
    }

    /// Sends a packet, or nil to drain. The corresponding C function is `avcodec_send_packet`.
    func send(_ packet: Packet?) -> SendResult {
        let status = avcodec_send_packet(context, packet?.pointer)
        if status >= 0 { return .accepted }
        if status == AVErrorCode.tryAgain.rawValue { return .full }
        if status == AVErrorCode.endOfFile.rawValue { return .accepted }  // already draining
        return .rejected(status)
    }

    /// Takes the next decoded frame. The corresponding C function is `avcodec_receive_frame`.
    func receive(into frame: Frame) -> ReceiveResult {
        let status = avcodec_receive_frame(context, frame.pointer)
        if status >= 0 { return .frame }
        if status == AVErrorCode.tryAgain.rawValue { return .needsInput }
        if status == AVErrorCode.endOfFile.rawValue { return .endOfStream }
        return .failed(status)
    }

    /// Drops buffered frames and state so the decoder can start a new stream of the same format.
    /// The corresponding C function is `avcodec_flush_buffers`.
    func flush() { avcodec_flush_buffers(context) }
}
