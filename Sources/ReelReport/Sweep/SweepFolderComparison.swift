import ReelCore
import ReelEngine

/// Two results folders of one sweep matrix compared cell by cell: the same traces, profiles and
/// settings run twice (by two builds, or before and after a change). For every metric, the mean
/// over cells of each side with its 95% interval, and the paired difference (b minus a, cell by
/// cell) with its interval: one that contains 0 says the change moved nothing at 95%. Over every
/// cell and by pattern and profile. What `reel feed sweep compare --json` prints.
package struct SweepFolderComparison: Sendable, Codable {
    package struct Row: Sendable, Codable {
        /// nil: over every pattern (or profile).
        package var pattern: String?
        package var profile: String?
        package var metric: String
        package var a: MeanInterval
        package var b: MeanInterval
        package var difference: MeanInterval

        /// Whether the difference's interval contains 0 (nil when it has none: under 2 pairs).
        package var withinInterval: Bool? {
            guard let low = difference.ciLow, let high = difference.ciHigh else { return nil }
            return low <= 0 && 0 <= high
        }
    }

    /// Cells both sides finished, and the cells either side lacks.
    package var pairs: Int
    package var unpaired: [String]
    package var rows: [Row]

    /// Compares `a` and `b`, the summaries of one matrix's cells by cell id.
    package init(matrix: SweepMatrix, a: [String: SessionSummary], b: [String: SessionSummary],
                 metrics: [SweepMetric] = SweepMetric.all) {
        let paired = matrix.cells.filter { a[$0.id] != nil && b[$0.id] != nil }
        pairs = paired.count
        unpaired = matrix.cells.filter { a[$0.id] == nil || b[$0.id] == nil }.map(\.id)
        let pattern = Dictionary(uniqueKeysWithValues: matrix.traces.map { ($0.id, $0.pattern) })
        let groups: [(pattern: String?, profile: String?)] = [(nil, nil)]
            + Array(Set(matrix.traces.map(\.pattern))).sorted().map { ($0, nil) } + matrix.profiles.map { (nil, $0) }
        rows = []
        for group in groups {
            let cells = paired.filter { cell in
                (group.pattern == nil || pattern[cell.trace] == group.pattern) && (group.profile == nil || cell.profile == group.profile)
            }
            for metric in metrics {
                var left: [Double] = [], right: [Double] = [], differences: [Double] = []
                for cell in cells {
                    guard let x = a[cell.id].flatMap(metric.value), let y = b[cell.id].flatMap(metric.value) else { continue }
                    left.append(x)
                    right.append(y)
                    differences.append(y - x)
                }
                rows.append(Row(pattern: group.pattern, profile: group.profile, metric: metric.key, a: MeanInterval(left),
                                b: MeanInterval(right), difference: MeanInterval(differences)))
            }
        }
    }
}
