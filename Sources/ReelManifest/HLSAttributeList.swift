import ReelCore
/// An HLS attribute list (`NAME=value,NAME="quoted, with commas",...`), RFC 8216 section 4.2.
/// Lenient about spaces around names and after commas, as FFmpeg's `ff_parse_key_value` is.
struct HLSAttributeList: Sendable {
    private var values: [(name: String, value: String, quoted: Bool)] = []

    init(_ text: Substring) {
        let bytes = Array(text.utf8)
        var index = 0
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while index < count {
            while index < count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
            guard index < count else { break }
            let nameStart = index
            while index < count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ",") { index += 1 }
            var nameEnd = index
            while nameEnd > nameStart, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
            guard index < count, bytes[index] == UInt8(ascii: "=") else {
                values.append((name, "", false))
                continue
            }
            index += 1
            while index < count, isSpace(bytes[index]) { index += 1 }
            if index < count, bytes[index] == UInt8(ascii: "\"") {
                let valueStart = index + 1
                var valueEnd = valueStart
                while valueEnd < count, bytes[valueEnd] != UInt8(ascii: "\"") { valueEnd += 1 }
                values.append((name, String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self), true))
                index = valueEnd + 1
                // Anything between the closing quote and the next comma is not part of the value.
                while index < count, bytes[index] != UInt8(ascii: ",") { index += 1 }
            } else {
                let valueStart = index
                while index < count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                var valueEnd = index
                while valueEnd > valueStart, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
                values.append((name, String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self), false))
            }
        }
    }

    /// The first value given for `name`, unquoted.
    subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// `YES` -> true, anything else (or absent) -> false.
    func bool(_ name: String) -> Bool { self[name] == "YES" }

    /// A group id attribute: nil when absent or `NONE` written unquoted.
    func group(_ name: String) -> String? {
        guard let entry = values.first(where: { $0.name == name }) else { return nil }
        if !entry.quoted && entry.value == "NONE" { return nil }
        return entry.value
    }
}
