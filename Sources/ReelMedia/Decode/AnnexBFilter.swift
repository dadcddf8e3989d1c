import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import ReelCore

/// Rewrites an H.264 stream's packets from MP4's form (length-prefixed NAL units, SPS and PPS in
/// the avcC extradata) to Annex B (start codes, SPS and PPS in band before every IDR frame), so a
/// decoder opened without extradata decodes fMP4/DASH streams exactly as it decodes MPEG-TS ones,
/// and the pool can hand one flushed decoder from either to the other. Used on the thread that
/// reads the packets. The corresponding C type is `AVBSFContext`, running `h264_mp4toannexb`.
final class AnnexBFilter {
    enum ReceiveResult: Equatable {
        case packet
        /// Send the next packet first.
        case needsInput
        /// Drained after `send(nil)`.
        case endOfStream
        /// The filter could not parse a packet and dropped it; it goes on with the next one.
        case failed(Int32)
    }

    private var context: UnsafeMutablePointer<AVBSFContext>?
    /// The stream whose packets go through the filter.
    let streamIndex: Int
    /// What a decoder of the filtered packets opens with: the filter's output parameters without
    /// extradata (the parameter sets arrive in band), as an MPEG-TS stream's are.
    let parameters: UnsafePointer<AVCodecParameters>
    private let ownedParameters: UnsafeMutablePointer<AVCodecParameters>

    /// The filter `stream` needs, or nil when its packets are fine as they are (Annex B already,
    /// or not H.264).
    static func forStream(_ stream: MediaInput.Stream) throws -> AnnexBFilter? {
        guard needsConversion(stream.codecParameters) else { return nil }
        return try AnnexBFilter(stream: stream)
    }

    /// True for H.264 whose extradata is an avcC record (it begins with its version, 1; Annex B
    /// begins with a start code, 0 0 1, or has no extradata at all).
    static func needsConversion(_ parameters: UnsafePointer<AVCodecParameters>) -> Bool {
        let p = parameters.pointee
        guard p.codec_id == AV_CODEC_ID_H264, let extradata = p.extradata, p.extradata_size >= 7 else { return false }
        return extradata[0] == 1
    }

    /// Sets up the filter for `stream`'s parameters and time base. The corresponding C functions
    /// are `av_bsf_get_by_name`, `av_bsf_alloc`, `avcodec_parameters_copy` and `av_bsf_init`.
    private init(stream: MediaInput.Stream) throws {
        guard let filter = av_bsf_get_by_name("h264_mp4toannexb") else {
            throw ReelError(.decoderUnavailable, "FFmpeg has no h264_mp4toannexb bitstream filter")
        }
        var context: UnsafeMutablePointer<AVBSFContext>?
        var status = av_bsf_alloc(filter, &context)
        guard status >= 0, let context else {
            throw ReelError(.internalFailure, "av_bsf_alloc failed", cause: AVErrorCode(status))
        }
        var output: UnsafeMutablePointer<AVCodecParameters>?
        status = avcodec_parameters_copy(context.pointee.par_in, stream.codecParameters)
        if status >= 0 {
            context.pointee.time_base_in = stream.timeBase
            status = av_bsf_init(context)
        }
        if status >= 0 {
            output = avcodec_parameters_alloc()
            status = output == nil ? AVErrorCode.outOfMemory.rawValue : avcodec_parameters_copy(output, context.pointee.par_out)
        }
        guard status >= 0, let output else {
            var failed: UnsafeMutablePointer<AVBSFContext>? = context
            av_bsf_free(&failed)
            avcodec_parameters_free(&output)
            throw ReelError(.openFailed, "cannot convert the H.264 stream \(stream.index) to Annex B",
                            cause: AVErrorCode(status))
        }
        // The filter's output extradata is the SPS and PPS as Annex B; the filter also puts them
        // in band before each IDR frame, so the decoder needs none, as for MPEG-TS.
        av_freep(&output.pointee.extradata)
        output.pointee.extradata_size = 0
        self.context = context
        self.streamIndex = stream.index
        self.ownedParameters = output
        self.parameters = UnsafePointer(output)
    }

    deinit {
        av_bsf_free(&context)
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = ownedParameters
        avcodec_parameters_free(&parameters)
    }

    /// True for a packet the filter takes: one of its stream with data or side data (FFmpeg reads
    /// an empty packet as the end of the input).
    func accepts(_ packet: Packet) -> Bool {
        packet.streamIndex == streamIndex && (packet.pointer.pointee.data != nil || packet.pointer.pointee.side_data_elems > 0)
    }

    /// Hands the filter a packet it `accepts`, leaving `packet` blank; nil tells it the input
    /// ended. Receive everything it has before sending again. The corresponding C function is
    /// `av_bsf_send_packet`.
    func send(_ packet: Packet?) throws {
        let status = av_bsf_send_packet(context, packet?.pointer)
        if status < 0 {
            throw ReelError(.demuxFailed, "av_bsf_send_packet failed for stream \(streamIndex)", cause: AVErrorCode(status))
        }
    }

    /// Takes the next converted packet. The corresponding C function is `av_bsf_receive_packet`.
    func receive(into packet: Packet) -> ReceiveResult {
        let status = av_bsf_receive_packet(context, packet.pointer)
        if status >= 0 { return .packet }
        if status == AVErrorCode.tryAgain.rawValue { return .needsInput }
        if status == AVErrorCode.endOfFile.rawValue { return .endOfStream }
        return .failed(status)
    }
}
