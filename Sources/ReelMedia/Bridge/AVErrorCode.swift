import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims

/// An FFmpeg error code with a Swift name and FFmpeg's text (`av_strerror`).
public struct AVErrorCode: Error, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    public static let endOfFile = AVErrorCode(reel_shim_averror_eof)
    public static let tryAgain = AVErrorCode(reel_shim_averror(EAGAIN))
    public static let exit = AVErrorCode(reel_shim_averror_exit)
    public static let invalidData = AVErrorCode(reel_shim_averror_invaliddata)
    public static let io = AVErrorCode(reel_shim_averror(EIO))
    public static let invalidArgument = AVErrorCode(reel_shim_averror(EINVAL))
    public static let outOfMemory = AVErrorCode(reel_shim_averror(ENOMEM))
    public static let notFound = AVErrorCode(reel_shim_averror(ENOENT))

    /// FFmpeg's description of the code. The corresponding C function is `av_strerror`.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 128)
        if av_strerror(rawValue, &buffer, buffer.count) < 0 { return "FFmpeg error \(rawValue)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
