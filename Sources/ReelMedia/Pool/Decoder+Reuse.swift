import CAVCodec

extension Decoder {
    /// Points a reused context at its new stream's time base (`pkt_timebase`).
    func setPacketTimeBase(_ timeBase: AVRational) {
        context.pointee.pkt_timebase = timeBase
    }
}
