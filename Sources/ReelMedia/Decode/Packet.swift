import CAVCodec
import CAVFormat
import CAVUtil

/// An owned `AVPacket`, reused across reads (`av_packet_unref` between uses).
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc failed: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }
    var size: Int { Int(pointer.pointee.size) }
    /// The packet's bytes, valid until it is unreferenced or reused.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: pointer.pointee.data, count: size) }
    var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }

    func unref() { av_packet_unref(pointer) }
}
