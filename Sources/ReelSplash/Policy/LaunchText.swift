import ReelCore
import Foundation

/// Dates, durations, sizes and names in the launch decisions' detail lines and warnings.
public enum LaunchText {
    /// "2026-11-27T08:00:00Z".
    static func date(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// "45 s", "12 min", "3 h 5 min", "2 d 4 h"; a negative duration reads as 0 s, one past
    /// a million days as "forever".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 1e11 else { return "forever" }
        let whole = Int(max(0, seconds).rounded())
        if whole < 60 { return "\(whole) s" }
        let minutes = whole / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }

    /// "812 B", "1.2 MB", "16.8 GB" (powers of 1000).
    static func bytes(_ value: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var amount = value.isFinite ? max(0, value) : 0
        var unit = 0
        while amount >= 1000 && unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        return unit == 0 ? "\(Int(amount)) B" : String(format: "%.1f %@", amount, units[unit])
    }

    /// Text from outside (a splash id, an asset URL, a layer name) as a warning or detail line
    /// shows it: control characters (CR, LF, NUL, ...) escaped, so one line stays one line and
    /// nothing invisible reaches a terminal or log.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case "\0": shown += "\\0"
            case _ where needsEscape(scalar): shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
