/// Embedded images for generated Lottie documents: a whole PNG (stored deflate blocks, so no
/// compressor is needed) small enough to decode, or only the header of a large PNG or JPEG, which
/// is all Reel reads and all an image needs to claim its size.
enum TinyImage {
    /// A complete RGBA PNG of one colour.
    static func png(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for _ in 0..<width { raw += [0xFF, 0x80, 0x00, 0xFF] }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let last: UInt8 = offset + count >= raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        return signature + chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0])
            + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// The signature and IHDR of a PNG claiming `width` x `height`, and nothing more.
    static func pngHeader(width: Int, height: Int) -> [UInt8] {
        signature + chunk("IHDR", bigEndian(UInt32(truncatingIfNeeded: width)) + bigEndian(UInt32(truncatingIfNeeded: height)) + [8, 6, 0, 0, 0])
    }

    /// The start of a baseline JPEG claiming `width` x `height`: SOI, a JFIF segment, SOF0.
    static func jpegHeader(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8((height >> 8) & 0xFF), UInt8(height & 0xFF), UInt8((width >> 8) & 0xFF), UInt8(width & 0xFF), 3,
               1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                output.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
