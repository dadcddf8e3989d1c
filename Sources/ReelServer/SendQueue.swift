#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore

/// What a connection's kernel send queue still holds, from Linux's `TCP_INFO` socket option.
/// Glibc's `tcp_info` predates the fields needed, so they are read at their kernel ABI offsets
/// (`tcpi_unacked` at 24, `tcpi_notsent_bytes` at 144, Linux 4.6 and later).
struct SendQueue: Sendable {
    /// Segments sent and not yet acknowledged by the peer.
    var unackedSegments: UInt32
    /// Bytes written but not yet sent (the peer's receive window is full).
    var notSentBytes: UInt32

    /// Everything written has reached the peer's kernel: a reset now loses no byte of it.
    var isDrained: Bool { unackedSegments == 0 && notSentBytes == 0 }

    /// Reads the queue of `channel`'s socket; nil when the channel has no TCP socket underneath.
    /// The C call underneath is `getsockopt(fd, IPPROTO_TCP, TCP_INFO, ...)`.
    static func read(_ channel: any Channel) -> EventLoopFuture<SendQueue>? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        #if os(Linux)
        let info: EventLoopFuture<KernelTCPInfo> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_INFO))
        return info.map { info in
            withUnsafeBytes(of: info.words) { bytes in
                SendQueue(unackedSegments: bytes.load(fromByteOffset: 24, as: UInt32.self),
                          notSentBytes: bytes.load(fromByteOffset: 144, as: UInt32.self))
            }
        }
        #else
        return nil
        #endif
    }
}

/// Room for the kernel's `struct tcp_info` (NIO zeroes it before `getsockopt` fills it).
private struct KernelTCPInfo: Sendable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
}
