import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims

extension Packet {
    /// True for a key frame's packet. The corresponding C flag is `AV_PKT_FLAG_KEY`.
    var isKeyFrame: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// The presentation (else decoding) time in `timeBase` seconds, when known.
    func seconds(in timeBase: AVRational) -> Double? {
        var ticks = pointer.pointee.pts
        if ticks == reel_shim_av_nopts_value { ticks = pointer.pointee.dts }
        guard ticks != reel_shim_av_nopts_value, timeBase.den != 0 else { return nil }
        return Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
    }
}
