/// Text from a configuration layer shown in a message: on one line, control characters escaped
/// (a value or key holding CR or LF cannot forge lines of output), and cut after `limit`
/// characters with the length said.
enum ShownText {
    static func oneLine(_ text: String, limit: Int = 200) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return out + "... (\(text.unicodeScalars.count) characters)" }
            count += 1
            switch scalar.value {
            case 0x0D: out += "\\r"
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
