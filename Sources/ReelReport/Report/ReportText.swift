import ReelCore

/// Text for the HTML report: escaping, and numbers written the same way on every machine (no
/// locale, no `String(format:)`), so the same events always give the same bytes.
enum ReportText {
    /// `text` safe inside an element or a quoted attribute: `& < > " '` become entities.
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// `value` rounded to `decimals` places, trailing zeros kept ("1.50" for 2 places).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        RatioText.fixed(value, decimals)
    }

    /// An SVG coordinate: one decimal at most ("12.5", "40").
    static func coordinate(_ value: Double) -> String {
        let text = fixed(value, 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// An integer with thousands separated by commas ("12,345,678").
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var output = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { output += "," }
            output.append(digit)
        }
        return value < 0 ? "-" + output : output
    }

    /// Milliseconds for people: "4.25 ms", "18.2 ms", "350 ms", "1,500 ms".
    static func ms(_ value: Double) -> String {
        value < 100 || value >= 1e15 ? "\(fixed(value, value < 10 ? 2 : value < 100 ? 1 : 0)) ms" : "\(grouped(Int64(value.rounded()))) ms"
    }

    /// A figure that may be missing (no samples): a dash then.
    static func ms(_ value: Double?) -> String { value.map { ms($0) } ?? "–" }

    /// A time in the session: "12.34 s".
    static func seconds(_ value: Double) -> String {
        "\(fixed(value, 2)) s"
    }

    /// Bytes in decimal units: "950 B", "12.3 KB", "660 KB", "4.56 MB".
    static func bytes(_ value: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var amount = Double(value)
        var unit = 0
        while abs(amount) >= 1000 && unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        if unit == 0 { return "\(value) B" }
        return "\(fixed(amount, abs(amount) < 10 ? 2 : abs(amount) < 100 ? 1 : 0)) \(units[unit])"
    }

    /// A ratio as a percentage: "93.5 %".
    static func percent(_ ratio: Double) -> String {
        "\(fixed(ratio * 100, 1)) %"
    }
}
