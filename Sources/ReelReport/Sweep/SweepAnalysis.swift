import ReelCore
import ReelEngine

/// What a sweep's cells say about each setting against the baseline: for every metric, the
/// mean over cells with its 95% interval on both sides, over every cell and broken down by
/// pattern and by profile. Cells are paired by trace and profile: a pair counts only when both
/// its baseline and its setting cell finished. What `reel feed sweep report --json` prints.
public struct SweepAnalysis: Sendable, Codable {
    public struct FailedCell: Sendable, Codable, Equatable {
        public var cell: String
        public var message: String

        public init(cell: String, message: String) {
            self.cell = cell
            self.message = message
        }
    }

    public struct Comparison: Sendable, Codable {
        public var setting: String
        /// nil: over every pattern (or profile).
        public var pattern: String?
        public var profile: String?
        public var metric: String
        public var baseline: MeanInterval
        public var value: MeanInterval
        /// value.mean / baseline.mean; null when either is missing or the baseline is 0.
        public var ratio: Double?
        /// The paired difference, setting minus baseline, cell by cell: an interval that excludes
        /// 0 says the setting changed the metric (at 95%).
        public var difference: MeanInterval
    }

    /// Cells in the matrix.
    public var cells: Int
    public var failedCells: [FailedCell]
    /// Cells with neither a summary nor a failure (not run yet, or on a shard not merged).
    public var missingCells: [String]
    public var comparisons: [Comparison]

    /// `summaries` and `failures` by cell id.
    public init(matrix: SweepMatrix, summaries: [String: SessionSummary], failures: [String: String],
                metrics: [SweepMetric] = SweepMetric.all) {
        cells = matrix.cells.count
        failedCells = matrix.cells.compactMap { cell in failures[cell.id].map { FailedCell(cell: cell.id, message: $0) } }
        missingCells = matrix.cells.filter { summaries[$0.id] == nil && failures[$0.id] == nil }.map(\.id)
        comparisons = []
        guard let baseline = matrix.baseline else { return }
        let patterns = Array(Set(matrix.traces.map(\.pattern))).sorted()
        // Each cell's baseline partner: same trace, same profile.
        var baselineCell: [String: SweepCell] = [:]
        for cell in matrix.cells where cell.setting == baseline.id { baselineCell["\(cell.trace)|\(cell.profile)"] = cell }
        let traces = Dictionary(matrix.traces.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let groups: [(pattern: String?, profile: String?)] = [(nil, nil)] + patterns.map { ($0, nil) }
            + matrix.profiles.map { (nil, $0) }
        for setting in matrix.settings where setting.id != baseline.id {
            let cells = matrix.cells.filter { $0.setting == setting.id }
            for group in groups {
                let members = cells.filter { cell in
                    (group.pattern == nil || traces[cell.trace]?.pattern == group.pattern)
                        && (group.profile == nil || cell.profile == group.profile)
                }
                for metric in metrics {
                    var base: [Double] = [], mine: [Double] = [], differences: [Double] = []
                    for cell in members {
                        guard let partner = baselineCell["\(cell.trace)|\(cell.profile)"],
                              let a = summaries[partner.id].flatMap(metric.value), let b = summaries[cell.id].flatMap(metric.value)
                        else { continue }
                        base.append(a)
                        mine.append(b)
                        differences.append(b - a)
                    }
                    let baseline = MeanInterval(base, atLeast: 0), value = MeanInterval(mine, atLeast: 0)
                    var ratio: Double?
                    if let x = baseline.mean, let y = value.mean, x != 0 { ratio = y / x }
                    comparisons.append(Comparison(setting: setting.id, pattern: group.pattern, profile: group.profile,
                                                  metric: metric.key, baseline: baseline, value: value, ratio: ratio,
                                                  difference: MeanInterval(differences)))
                }
            }
        }
    }

    /// Every setting's figures over all cells, the baseline's included (for the chart and the
    /// table of the page): metric key -> setting id -> mean and interval.
    public static func overall(matrix: SweepMatrix, summaries: [String: SessionSummary],
                               metrics: [SweepMetric] = SweepMetric.all) -> [String: [String: MeanInterval]] {
        var result: [String: [String: MeanInterval]] = [:]
        for metric in metrics {
            for setting in matrix.settings {
                let values = matrix.cells.filter { $0.setting == setting.id }.compactMap { summaries[$0.id].flatMap(metric.value) }
                result[metric.key, default: [:]][setting.id] = MeanInterval(values, atLeast: 0)
            }
        }
        return result
    }
}
