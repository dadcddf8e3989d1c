import CAVCodec
import CAVFormat
import CAVUtil
import CSWResample
import ReelCore

/// Converts decoded audio frames to a `SoundFormat` (rate, channels, interleaved s16), made for
/// the frames' own format and made again when it changes. The corresponding C type is `SwrContext`.
final class Resampler {
    let format: SoundFormat
    private var context: OpaquePointer?
    /// The input format the context was made for: sample format, rate, channels.
    private var input: (format: Int32, rate: Int32, channels: Int32)?

    init(format: SoundFormat) {
        self.format = format
    }

    deinit { release() }

    private func release() {
        var context = self.context
        swr_free(&context)
        self.context = nil
        input = nil
    }

    /// Converts `frame`'s samples; returns the interleaved output (possibly empty: the resampler
    /// holds a few samples back for its filter). The corresponding C function is `swr_convert`.
    func convert(_ frame: Frame) throws -> [Int16] {
        let f = frame.pointer
        let wanted = (f.pointee.format, f.pointee.sample_rate, f.pointee.ch_layout.nb_channels)
        if input.map({ $0 != wanted }) ?? true { try open(for: f) }
        let inCount = Int32(frame.sampleCount)
        let room = swr_get_out_samples(context, inCount)
        guard room >= 0 else { throw ReelError(.decodeFailed, "cannot resample the sound", cause: AVErrorCode(room)) }
        return try f.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
            try run(input: planes, count: inCount, room: Int(room))
        }
    }

    /// The samples the resampler still holds, at the end of the sound.
    func flush() throws -> [Int16] {
        guard context != nil else { return [] }
        let room = swr_get_out_samples(context, 0)
        guard room > 0 else { return [] }
        return try run(input: nil, count: 0, room: Int(room))
    }

    /// Seconds the resampler holds back now (its output runs this much behind its input).
    var delay: Double {
        guard context != nil else { return 0 }
        return Double(swr_get_delay(context, Int64(format.sampleRate))) / Double(format.sampleRate)
    }

    private func run(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32, room: Int) throws -> [Int16] {
        var out = [Int16](repeating: 0, count: max(1, room) * format.channels)
        let made = out.withUnsafeMutableBytes { bytes -> Int32 in
            var plane: UnsafeMutablePointer<UInt8>? = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return swr_convert(context, &plane, Int32(max(1, room)), input, count)
        }
        guard made >= 0 else { throw ReelError(.decodeFailed, "cannot resample the sound", cause: AVErrorCode(made)) }
        out.removeSubrange((Int(made) * format.channels)...)
        return out
    }

    /// Makes the context for `frame`'s format. The corresponding C functions are
    /// `swr_alloc_set_opts2` and `swr_init`.
    private func open(for frame: UnsafeMutablePointer<AVFrame>) throws {
        release()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(format.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var inLayout = AVChannelLayout()
        if av_channel_layout_copy(&inLayout, &frame.pointee.ch_layout) < 0 || inLayout.order == AV_CHANNEL_ORDER_UNSPEC {
            let channels = frame.pointee.ch_layout.nb_channels
            av_channel_layout_uninit(&inLayout)
            av_channel_layout_default(&inLayout, max(1, channels))
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var made: OpaquePointer?
        var status = swr_alloc_set_opts2(&made, &outLayout, AV_SAMPLE_FMT_S16, Int32(format.sampleRate), &inLayout,
                                         AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        if status >= 0 { status = swr_init(made) }
        guard status >= 0 else {
            swr_free(&made)
            throw ReelError(.decodeFailed, "cannot resample sound of \(frame.pointee.sample_rate) Hz to \(format)", cause: AVErrorCode(status))
        }
        context = made
        input = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels)
    }
}
