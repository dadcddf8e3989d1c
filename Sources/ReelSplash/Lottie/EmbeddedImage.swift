/// An image embedded in a Lottie document as a `data:` URI, measured without decoding it: the
/// base64 payload decoded to bytes and the picture's size read from its PNG or JPEG header.
/// rlottie decodes every image asset when it loads the document (stb_image, 4 bytes a pixel),
/// so the header says what loading it will cost.
struct EmbeddedImage: Hashable {
    enum Format: String { case png = "PNG", jpeg = "JPEG" }

    var format: Format
    var width: Int
    var height: Int

    /// A PNG may claim 2^32 - 1 pixels a side: the product is a `Double`, never an overflow.
    var pixels: Double { Double(width) * Double(height) }

    /// The image a `data:...;base64,...` URI holds, or why it cannot be measured.
    static func measure(dataURI: String) -> Result<EmbeddedImage, Problem> {
        guard let comma = dataURI.utf8.firstIndex(of: UInt8(ascii: ",")) else { return .failure(.notBase64) }
        let header = dataURI.utf8[dataURI.utf8.startIndex..<comma]
        guard header.count <= 200, String(decoding: header, as: UTF8.self).hasSuffix(";base64") else { return .failure(.notBase64) }
        guard let bytes = base64(dataURI.utf8[dataURI.utf8.index(after: comma)...]) else { return .failure(.notBase64) }
        return measure(bytes)
    }

    /// The size of a PNG or JPEG from its header.
    static func measure(_ bytes: [UInt8]) -> Result<EmbeddedImage, Problem> {
        let image: EmbeddedImage?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            image = png(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            image = jpeg(bytes)
        } else {
            return .failure(.unknownFormat)
        }
        guard let image, image.width > 0, image.height > 0 else { return .failure(.noSize) }
        return .success(image)
    }

    enum Problem: Error, Hashable {
        case notBase64
        case unknownFormat
        case noSize

        var text: String {
            switch self {
            case .notBase64: "is not a base64 data: URI"
            case .unknownFormat: "is neither PNG nor JPEG"
            case .noSize: "has no readable size in its header"
            }
        }
    }

    /// The first chunk of a PNG is IHDR: width and height, 4 bytes each, big-endian.
    private static func png(_ bytes: [UInt8]) -> EmbeddedImage? {
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        return EmbeddedImage(format: .png, width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
    }

    /// The size is in the first start-of-frame segment (SOF0 to SOF15 but DHT, JPG and DAC);
    /// the segments before it are skipped by their lengths.
    private static func jpeg(_ bytes: [UInt8]) -> EmbeddedImage? {
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }
            let length = bigEndian(bytes, index + 2, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= bytes.count else { return nil }
                return EmbeddedImage(format: .jpeg, width: bigEndian(bytes, index + 7, 2), height: bigEndian(bytes, index + 5, 2))
            }
            index += 2 + length
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Standard base64 with optional padding; nil on any other character.
    private static func base64(_ text: Substring.UTF8View) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                guard padding <= 2 else { return nil }
                continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return output.isEmpty ? nil : output
    }
}
