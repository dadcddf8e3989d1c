import Foundation
import ReelCore
import ReelEngine
import ReelNet
import ReelReport

/// Writes what a feed run (or a comparison) leaves behind: the events as JSON lines (the second
/// run's next to the first's, `out-b.jsonl`) and the HTML report of every run in one page.
package enum FeedRunFiles {
    /// Writes the files asked for (and `summary`, a summary or comparison as JSON), on a thread
    /// of its own; returns the paths written, in order.
    package static func write(_ runs: [FeedRunResult], events: String?, report: String?,
                             summary: (path: String, json: JSONValue)? = nil, traceEvents: String? = nil) async throws -> [String] {
        try await BlockingPool.shared.run {
            var written: [String] = []
            if let summary {
                do {
                    try Data((JSONWriter.pretty(ReportJSON.versioned(summary.json)) + "\n").utf8).write(to: URL(fileURLWithPath: summary.path), options: .atomic)
                } catch {
                    throw ReelError(.invalidInput, "cannot write the summary to '\(summary.path)': \(error.localizedDescription)")
                }
                written.append(summary.path)
            }
            if let events {
                for (index, run) in runs.enumerated() {
                    let path = index == 0 ? events : FeedComparison.secondEventsPath(events)
                    try SessionEvent.write(run.events, to: path)
                    written.append(path)
                }
            }
            if let traceEvents {
                for (index, run) in runs.enumerated() {
                    let path = index == 0 ? traceEvents : FeedComparison.secondEventsPath(traceEvents)
                    do {
                        try Data((JSONWriter.compact(ChromeTrace.make(run.events)) + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                    } catch {
                        throw ReelError(.invalidInput, "cannot write the trace events to '\(path)': \(error.localizedDescription)")
                    }
                    written.append(path)
                }
            }
            if let report {
                let page = try HTMLReport(runs: runs.map { HTMLReport.Run(title: $0.title, events: $0.events, summary: $0.summary) })
                try page.write(to: report)
                written.append(report)
            }
            return written
        }
    }
}
