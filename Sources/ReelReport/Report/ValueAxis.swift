/// A linear value axis from 0: a round top and round ticks (1, 2 or 5 times a power of ten).
struct ValueAxis: Sendable {
    var top: Double
    var step: Double

    /// An axis reaching at least `maximum` with at most `maxTicks` steps.
    init(maximum: Double, maxTicks: Int = 5) {
        let target = max(maximum, 1e-9) / Double(maxTicks)
        var power = 1.0
        while power * 10 <= target { power *= 10 }
        while power > target { power /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= target } ?? power * 10
        self.step = step
        self.top = max(step, (maximum / step - 1e-9).rounded(.up) * step)
    }

    var ticks: [Double] {
        let count = Int((top / step).rounded())
        return (0...count).map { Double($0) * step }
    }
}
