/// The session's time across a chart: where a second falls in pixels and which seconds get a
/// tick. The timeline and the bytes chart share one, so their times line up on the page.
struct TimeAxis: Sendable {
    /// Seconds shown, from 0.
    var duration: Double
    /// Left edge and width of the plot in pixels.
    var left: Double
    var width: Double

    init(duration: Double, left: Double, width: Double) {
        self.duration = max(duration, 1)
        self.left = left
        self.width = width
    }

    /// The x of time `t`, clamped to the plot.
    func x(_ t: Double) -> Double {
        left + width * min(max(t / duration, 0), 1)
    }

    /// `t` rounded to half a pixel's worth of time: spans meeting at the same half pixel merge.
    func snapped(_ t: Double) -> Double {
        ((x(t) - left) * 2).rounded() / 2 + left
    }

    /// Tick spacing in seconds: the smallest of 1-2-5 and minute steps that gives at most 12 ticks.
    var step: Double {
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
        return steps.first { duration / $0 <= 12 } ?? (duration / 12).rounded(.up)
    }

    /// The tick times, 0 through the duration.
    var ticks: [Double] {
        let step = step
        let count = Int((duration / step + 1e-9).rounded(.down))
        return (0...count).map { Double($0) * step }
    }

    /// A tick's label: "12 s" for short sessions, "m:ss" once they pass two minutes.
    func label(_ t: Double) -> String {
        if duration < 120 {
            return "\(step < 1 ? ReportText.fixed(t, 1) : ReportText.fixed(t, 0)) s"
        }
        guard t < 1e15 else { return ReportText.fixed(t, 0) + " s" }
        let total = Int(t.rounded())
        let seconds = total % 60
        return "\(total / 60):\(seconds < 10 ? "0" : "")\(seconds)"
    }
}
