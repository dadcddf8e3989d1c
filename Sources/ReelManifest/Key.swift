import Foundation
import ReelCore

/// How a segment is encrypted (HLS `EXT-X-KEY`). `METHOD=NONE` is not a key: segments after it
/// carry `key == nil`.
public struct Key: Sendable, Hashable {
    /// The encryption method as written (`AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR`, ...).
    public var method: String
    /// The key URI as written in the playlist.
    public var uri: String
    /// `uri` resolved against the playlist URL.
    public var resolvedURL: URL
    /// The 16-byte IV written in the tag, or nil when the tag has none (then the IV is the media
    /// sequence number of the segment, RFC 8216 section 5.2; see `Segment.initializationVector`).
    public var iv: Data?
    /// `KEYFORMAT` when given (nil means `identity`, a plain 16-byte AES key).
    public var keyFormat: String?

    public init(method: String, uri: String, resolvedURL: URL, iv: Data? = nil, keyFormat: String? = nil) {
        self.method = method
        self.uri = uri
        self.resolvedURL = resolvedURL
        self.iv = iv
        self.keyFormat = keyFormat
    }

    /// The IV used for the segment with media sequence number `sequenceNumber`: the explicit IV,
    /// or the sequence number as a 128-bit big-endian integer (RFC 8216 section 5.2).
    public func initializationVector(sequenceNumber: Int64) -> Data {
        if let iv { return iv }
        var bytes = [UInt8](repeating: 0, count: 16)
        let value = UInt64(bitPattern: sequenceNumber)
        for index in 0..<8 { bytes[15 - index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        return Data(bytes)
    }

    /// What to fetch to get the key bytes.
    public var dataSpec: DataSpec { DataSpec(url: resolvedURL, kind: .key) }

    /// `0x` followed by 32 upper-case hex digits, the HLS spelling of an IV.
    public static func hexString(_ iv: Data) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]("0x".utf8)
        out.reserveCapacity(2 + iv.count * 2)
        for byte in iv {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
