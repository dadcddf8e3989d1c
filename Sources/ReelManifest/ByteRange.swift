import ReelCore
/// A sub-range of a resource: `length` bytes starting at `offset` (HLS `EXT-X-BYTERANGE`,
/// DASH `mediaRange`/`range`). Offsets are always absolute once parsed.
public struct ByteRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// First byte of the range.
    public var offset: Int64
    /// Number of bytes in the range.
    public var length: Int64

    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }

    /// One past the last byte: where an HLS range written without an offset continues.
    public var end: Int64 { offset + length }

    /// `length@offset`, the HLS spelling.
    public var description: String { "\(length)@\(offset)" }
}
