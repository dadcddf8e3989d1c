import Foundation

/// Dates and durations in the launch decisions' detail lines.
enum LaunchText {
    /// "2026-11-27T08:00:00Z".
    static func date(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// "45 s", "12 min", "3 h 5 min", "2 d 4 h".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "forever" }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        let minutes = whole / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }
}
