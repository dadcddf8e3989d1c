import ReelCore
/// Where bytes stop being UTF-8 text. Playlists must be UTF-8 (RFC 8216 section 4.1) and Reel
/// reads UTF-8 MPDs only: a manifest that is not would be read one way by Reel's parsers and
/// another by FFmpeg's, so both parsers refuse it, naming the offset.
enum UTF8Text {
    /// The offset of the first byte that breaks UTF-8 or is NUL (a C parser would stop there),
    /// or nil when every byte is text. Linear, eight ASCII bytes at a time.
    static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            // An empty buffer has no base address, and no invalid byte either.
            guard let base = buffer.baseAddress else { return nil }
            let count = buffer.count
            var index = 0
            while index < count {
                // Eight ASCII bytes without a NUL among them: skip them at once.
                if index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    let hasHighBit = word & 0x8080_8080_8080_8080 != 0
                    let hasZero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
                    if !hasHighBit && !hasZero {
                        index += 8
                        continue
                    }
                }
                let byte = buffer[index]
                if byte == 0 { return index }
                if byte < 0x80 {
                    index += 1
                    continue
                }
                let length: Int
                var minimum: UInt32
                var scalar: UInt32
                switch byte {
                case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(byte & 0x1F))
                case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(byte & 0x0F))
                case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(byte & 0x07))
                default: return index
                }
                guard index + length <= count else { return index }
                for offset in 1..<length {
                    let next = buffer[index + offset]
                    guard next & 0xC0 == 0x80 else { return index }
                    scalar = scalar << 6 | UInt32(next & 0x3F)
                }
                if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
                index += length
            }
            return nil
        }
    }

    /// "a NUL byte at offset 5" or "bytes that are not UTF-8 at offset 11".
    static func describe(_ bytes: [UInt8], offset: Int) -> String {
        offset < bytes.count && bytes[offset] == 0
            ? "a NUL byte at offset \(offset)" : "bytes that are not UTF-8 at offset \(offset)"
    }

    /// The 1-based line holding `offset`.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == 0x0A { line += 1 }
        return line
    }
}
