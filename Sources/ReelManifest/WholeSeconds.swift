import ReelCore
/// Converts durations in seconds to whole seconds for target durations without trapping:
/// manifests can carry absurd values (1e300, NaN never reaches here), and `Int(Double)` traps
/// when the value does not fit.
enum WholeSeconds {
    /// `seconds` rounded with `rule`, clamped to 0...Int32.max.
    static func from(_ seconds: Double, _ rule: FloatingPointRoundingRule) -> Int {
        guard seconds.isFinite else { return seconds > 0 ? Int(Int32.max) : 0 }
        let rounded = seconds.rounded(rule)
        if rounded <= 0 { return 0 }
        if rounded >= Double(Int32.max) { return Int(Int32.max) }
        return Int(rounded)
    }
}
