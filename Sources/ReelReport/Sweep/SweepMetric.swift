import ReelCore
import ReelEngine

/// A figure of a session summary that a sweep compares across settings: its key in reports,
/// how to read it, and which way is better.
package struct SweepMetric: Sendable, Hashable {
    package enum Unit: String, Sendable {
        case ratio, milliseconds, count, bytes, factor

        /// The least a figure of this unit can be (every one is at least 0).
        package var lowerBound: Double { 0 }
        /// The most it can be: 1 for a share, no bound for the others.
        package var upperBound: Double? { self == .ratio ? 1 : nil }
    }

    package let key: String
    package let label: String
    package let unit: Unit
    package let higherIsBetter: Bool
    package let value: @Sendable (SessionSummary) -> Double?

    package static func == (lhs: SweepMetric, rhs: SweepMetric) -> Bool { lhs.key == rhs.key }
    package func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The figures every sweep report shows, in order.
    package static let all: [SweepMetric] = [
        SweepMetric(key: "startedWithin50msRatio", label: "plays within 50 ms", unit: .ratio, higherIsBetter: true) {
            $0.startedWithin50msRatio
        },
        SweepMetric(key: "ttffMs.p50", label: "TTFF p50", unit: .milliseconds, higherIsBetter: false) { $0.ttffMs.p50 },
        SweepMetric(key: "ttffMs.p95", label: "TTFF p95", unit: .milliseconds, higherIsBetter: false) { $0.ttffMs.p95 },
        SweepMetric(key: "stalls.count", label: "stalls", unit: .count, higherIsBetter: false) { Double($0.stalls.count) },
        SweepMetric(key: "stalls.totalMs", label: "stalled time", unit: .milliseconds, higherIsBetter: false) { $0.stalls.totalMs },
        SweepMetric(key: "abr.meanPlayedKbps", label: "mean played bitrate (kbps)", unit: .count, higherIsBetter: true) {
            $0.abr?.meanPlayedKbps
        },
        SweepMetric(key: "cdnBytesPerBytePlayed", label: "CDN bytes / byte played", unit: .factor, higherIsBetter: false) {
            $0.bytesPlayed > 0 ? Double($0.cdn.bytes) / Double($0.bytesPlayed) : nil
        },
        SweepMetric(key: "prefetch.wastedBytes", label: "prefetch waste", unit: .bytes, higherIsBetter: false) {
            Double($0.prefetch.wastedBytes)
        },
    ]

    package static func named(_ key: String) -> SweepMetric? { all.first { $0.key == key } }
}
