import ReelCore
import ReelEngine

/// What a sweep's cells say about each setting against the baseline: for every metric, the
/// mean over cells with its 95% interval on both sides, over every cell and broken down by
/// pattern and by profile. Cells are paired by trace and profile: a pair counts only when both
/// its baseline and its setting cell finished. What `reel feed sweep report --json` prints.
package struct SweepAnalysis: Sendable, Codable {
    package struct FailedCell: Sendable, Codable, Equatable {
        package var cell: String
        package var message: String

        package init(cell: String, message: String) {
            self.cell = cell
            self.message = message
        }
    }

    package struct Comparison: Sendable, Codable {
        package var setting: String
        /// nil: over every pattern (or profile).
        package var pattern: String?
        package var profile: String?
        package var metric: String
        package var baseline: MeanInterval
        package var value: MeanInterval
        /// value.mean / baseline.mean; null when either is missing or the baseline is 0.
        package var ratio: Double?
        /// The paired difference, setting minus baseline, cell by cell: an interval that excludes
        /// 0 says the setting changed the metric (at 95%).
        package var difference: MeanInterval
    }

    /// Cells in the matrix.
    package var cells: Int
    package var failedCells: [FailedCell]
    /// Cells with neither a summary nor a failure (not run yet, or on a shard not merged).
    package var missingCells: [String]
    package var comparisons: [Comparison]

    /// `summaries` and `failures` by cell id. One pass over the cells: each adds its pair to the
    /// three groups it belongs to (every cell, its pattern, its profile).
    package init(matrix: SweepMatrix, summaries: [String: SessionSummary], failures: [String: String],
                metrics: [SweepMetric] = SweepMetric.all) {
        cells = matrix.cells.count
        failedCells = matrix.cells.compactMap { cell in failures[cell.id].map { FailedCell(cell: cell.id, message: $0) } }
        missingCells = matrix.cells.filter { summaries[$0.id] == nil && failures[$0.id] == nil }.map(\.id)
        comparisons = []
        guard let baseline = matrix.baseline else { return }
        let patterns = Array(Set(matrix.traces.map(\.pattern))).sorted()
        let groups: [(pattern: String?, profile: String?)] = [(nil, nil)] + patterns.map { ($0, nil) }
            + matrix.profiles.map { (nil, $0) }
        var patternGroup: [String: Int] = [:], profileGroup: [String: Int] = [:]
        for (offset, pattern) in patterns.enumerated() { patternGroup[pattern] = 1 + offset }
        for (offset, profile) in matrix.profiles.enumerated() { profileGroup[profile] = 1 + patterns.count + offset }
        let compared = matrix.settings.filter { $0.id != baseline.id }
        var settingPosition: [String: Int] = [:]
        for (offset, setting) in compared.enumerated() { settingPosition[setting.id] = offset }
        // Each cell's baseline partner: same trace, same profile.
        var partner: [Place: SessionSummary] = [:]
        for cell in matrix.cells where cell.setting == baseline.id { partner[Place(cell)] = summaries[cell.id] }
        // The pairs of each setting, group and metric, in one flat array.
        func slot(_ setting: Int, _ group: Int, _ metric: Int) -> Int { (setting * groups.count + group) * metrics.count + metric }
        var pairs = [Pairs](repeating: Pairs(), count: compared.count * groups.count * metrics.count)
        for cell in matrix.cells {
            guard let setting = settingPosition[cell.setting], let mine = summaries[cell.id], let theirs = partner[Place(cell)]
            else { continue }
            var memberOf = [0]
            if let pattern = matrix.trace(cell.trace)?.pattern, let group = patternGroup[pattern] { memberOf.append(group) }
            if let group = profileGroup[cell.profile] { memberOf.append(group) }
            for (index, metric) in metrics.enumerated() {
                guard let a = metric.value(theirs), let b = metric.value(mine) else { continue }
                for group in memberOf {
                    pairs[slot(setting, group, index)].base.append(a)
                    pairs[slot(setting, group, index)].mine.append(b)
                }
            }
        }
        for (position, setting) in compared.enumerated() {
            for (index, group) in groups.enumerated() {
                for (offset, metric) in metrics.enumerated() {
                    let found = pairs[slot(position, index, offset)]
                    let (low, high) = (metric.unit.lowerBound, metric.unit.upperBound)
                    let baseline = MeanInterval(found.base, atLeast: low, atMost: high)
                    let value = MeanInterval(found.mine, atLeast: low, atMost: high)
                    var ratio: Double?
                    if let x = baseline.mean, let y = value.mean, x != 0 { ratio = y / x }
                    let differences = zip(found.base, found.mine).map { $1 - $0 }
                    // A difference of two shares is within -1...1.
                    let span = high.map { $0 - low }
                    comparisons.append(Comparison(setting: setting.id, pattern: group.pattern, profile: group.profile,
                                                  metric: metric.key, baseline: baseline, value: value, ratio: ratio,
                                                  difference: MeanInterval(differences, atLeast: span.map { -$0 }, atMost: span)))
                }
            }
        }
    }

    /// A trace and a profile: where a cell and its baseline partner meet.
    private struct Place: Hashable {
        var trace: String
        var profile: String
        init(_ cell: SweepCell) {
            trace = cell.trace
            profile = cell.profile
        }
    }

    /// The baseline's and the setting's values of the pairs of one setting, group and metric.
    private struct Pairs {
        var base: [Double] = []
        var mine: [Double] = []
    }

    /// Every setting's figures over all cells, the baseline's included (for the chart and the
    /// table of the page): metric key -> setting id -> mean and interval. One pass over the cells.
    package static func overall(matrix: SweepMatrix, summaries: [String: SessionSummary],
                               metrics: [SweepMetric] = SweepMetric.all) -> [String: [String: MeanInterval]] {
        var values: [String: [[Double]]] = [:]
        let none = [[Double]](repeating: [], count: metrics.count)
        for cell in matrix.cells {
            guard let summary = summaries[cell.id] else { continue }
            for (index, metric) in metrics.enumerated() {
                if let value = metric.value(summary) { values[cell.setting, default: none][index].append(value) }
            }
        }
        var result: [String: [String: MeanInterval]] = [:]
        for (index, metric) in metrics.enumerated() {
            for setting in matrix.settings {
                result[metric.key, default: [:]][setting.id] = MeanInterval(values[setting.id]?[index] ?? [], atLeast: metric.unit.lowerBound,
                                                                            atMost: metric.unit.upperBound)
            }
        }
        return result
    }
}
