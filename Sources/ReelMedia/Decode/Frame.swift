import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims

/// An owned `AVFrame`, reused across decodes (`av_frame_unref` between uses).
public final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc failed: out of memory") }
        pointer = frame
    }

    /// A new reference to `other`'s data (the decoder may reuse `other` at once), for a frame
    /// held back before it is shown. The corresponding C function is `av_frame_ref`.
    convenience init(referencing other: Frame) {
        self.init()
        if av_frame_ref(pointer, other.pointer) < 0 { fatalError("av_frame_ref failed: out of memory") }
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    var width: Int { Int(pointer.pointee.width) }
    var height: Int { Int(pointer.pointee.height) }
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
    var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    /// The frame's presentation time in its stream's time base, or nil when unknown.
    var timestamp: Int64? {
        let pts = pointer.pointee.best_effort_timestamp
        return pts == reel_shim_av_nopts_value ? nil : pts
    }

    func unref() { av_frame_unref(pointer) }
}
