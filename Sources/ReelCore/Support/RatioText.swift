/// Numbers for people, written the same on every machine (no locale, no `String(format:)`), and
/// the one rule for showing b / a: a ratio of milliseconds whose base is under one millisecond
/// says little (0.01 ms against 4.5 ms reads "450x"), so the difference in milliseconds stands
/// beside it. The session report, the sweep page and the summary table all write ratios here.
package enum RatioText {
    /// Below this base, in milliseconds, a ratio gets the difference beside it.
    package static let smallBaseMs = 1.0

    /// `value` rounded to `decimals` places, trailing zeros kept ("1.50" for 2 places); "–" for
    /// a value that is not finite.
    package static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Beyond what Int64 holds (nonsense in a session, but it must not trap): Swift's own form.
        guard abs(value) * scale < 9e18 else { return String(describing: value) }
        let scaled = Int64((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = scaled / Int64(scale)
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let fraction = String(scaled % Int64(scale))
        return "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }

    /// `value / base` with `times` after it ("1.25×", two decimals under 10, one above), and for
    /// milliseconds on a base under `smallBaseMs` the difference too ("455.5× (+4.49 ms)"); nil
    /// when the base is 0 or either is not finite.
    package static func ratio(base: Double, value: Double, milliseconds: Bool, times: String = "×") -> String? {
        guard base != 0, base.isFinite, value.isFinite else { return nil }
        let ratio = value / base
        var text = fixed(ratio, abs(ratio) < 10 ? 2 : 1) + times
        if milliseconds && abs(base) < smallBaseMs {
            let difference = value - base
            text += " (\(difference < 0 ? "−" : "+")\(fixed(abs(difference), 2)) ms)"
        }
        return text
    }
}
