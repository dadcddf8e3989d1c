import Foundation

/// A mean over cells with its 95% confidence interval (Student's t, two-sided), as the sweep
/// report compares settings. The interval is null with fewer than two values, and kept inside
/// the range the figure can take (a share within 0...1, a time at least 0): with few cells a
/// t interval runs far past it ("25 % [0 %, 343 %]"), which says nothing more than the bound.
package struct MeanInterval: Sendable, Codable, Equatable {
    package var mean: Double?
    package var ciLow: Double?
    package var ciHigh: Double?
    package var n: Int

    /// The mean and interval of `values`; `atLeast` and `atMost` bound the interval for a figure
    /// that cannot go past them (a time, a count: at least 0; a share: 0...1).
    package init(_ values: [Double], atLeast floor: Double? = nil, atMost ceiling: Double? = nil) {
        let finite = values.filter(\.isFinite)
        n = finite.count
        guard !finite.isEmpty else { return }
        let mean = finite.reduce(0, +) / Double(n)
        self.mean = mean
        guard n >= 2 else { return }
        let variance = finite.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
        let half = Self.tCritical(degreesOfFreedom: n - 1) * (variance / Double(n)).squareRoot()
        ciLow = floor.map { max($0, mean - half) } ?? mean - half
        ciHigh = ceiling.map { min($0, mean + half) } ?? mean + half
    }

    /// The two-sided 97.5% quantile of Student's t with `degreesOfFreedom`; the normal one (1.96)
    /// past the table.
    static func tCritical(degreesOfFreedom: Int) -> Double {
        let table: [Double] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                               2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                               2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
        if degreesOfFreedom >= 1 && degreesOfFreedom <= table.count { return table[degreesOfFreedom - 1] }
        if degreesOfFreedom <= 40 { return 2.021 }
        if degreesOfFreedom <= 60 { return 2.000 }
        if degreesOfFreedom <= 120 { return 1.980 }
        return 1.960
    }
}
