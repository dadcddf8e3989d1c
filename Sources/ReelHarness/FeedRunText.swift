import Foundation
import ReelCore
import ReelFeed
import ReelEngine
import ReelServer

/// The lines `reel feed run` and `reel demo` print above the summary table.
package enum FeedRunText {
    /// What ran against what: the trace's length and the origin, then one line per run with its
    /// events and the simulator's bill.
    package static func header(_ request: FeedRunRequest, runs: [FeedRunResult]) -> String {
        let length = request.trace.samples.last?.time ?? 0
        var lines = ["Trace: \(request.trace.samples.count) samples over \(String(format: "%.1f", length)) s, \(request.origin.description)"]
        for run in runs {
            var line = "\(run.title): \(run.events.count) events"
            if run.interrupted {
                let reached = run.events.last.map { String(format: "%.1f", max(0, $0.time - request.launchSeconds)) } ?? "0"
                line += " (interrupted at \(reached) s of the trace: the figures are of what ran)"
            }
            if let bill = run.bill {
                line += "; CDN bill \(bill.requests) requests, \(SessionSummary.bytesText(Double(bill.bodyBytes))), peak \(bill.peakConcurrentConnections) connections"
                if let split = bill.purposeText { line += "; by purpose (CMCD): \(split)" }
                let faults = bill.faults
                if faults.status + faults.reset + faults.stall > 0 {
                    line += "; faults injected: \(faults.status) error statuses, \(faults.reset) resets, \(faults.stall) stalls"
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The live line of a running session: how far into the trace, the plays and how many
    /// started within 50 ms so far.
    package static func progress(_ progress: FeedRunProgress) -> String {
        "feed: \(String(format: "%.1f", progress.traceSeconds)) of \(String(format: "%.1f", progress.traceLength)) s of the trace, "
            + "\(progress.plays) play\(progress.plays == 1 ? "" : "s"), \(progress.startedFast) of \(progress.firstFrames) first frames "
            + "within \(Int(SessionSummary.fastStartMs)) ms"
    }
}

extension FeedOrigin: CustomStringConvertible {
    package var description: String {
        switch self {
        case .serve(let folder, let profile, let faults):
            "serving \(folder.path) with the CDN simulator (\(profile)\(faults.isEmpty ? "" : ", faults: \(faults)"))"
        case .remote(let url): "against \(url.absoluteString)"
        case .simulator(let server): "against the CDN simulator at \(server.baseURL.absoluteString) (\(server.profile))"
        }
    }
}
