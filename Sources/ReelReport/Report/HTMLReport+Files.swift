import Foundation
import ReelCore
import ReelEngine

extension HTMLReport {
    /// A report of the runs saved in files: the i-th events file with the i-th summary file and
    /// title. A summary file holding a comparison (`{a, b, ratios}`) gives the first run its `a`
    /// and the second its `b`, so one such file serves both runs. A run without a title is named
    /// after its events file.
    package static func load(events: [String], summaries: [String] = [], titles: [String] = []) throws -> HTMLReport {
        guard (1...2).contains(events.count) else {
            throw ReelError(.invalidInput, "give one or two events files, not \(events.count)")
        }
        guard summaries.count <= events.count, titles.count <= events.count else {
            throw ReelError(.invalidInput, "\(summaries.count) summary files and \(titles.count) titles for \(events.count) events file\(events.count == 1 ? "" : "s"): give at most one of each per events file")
        }
        let files = try summaries.map(SessionSummary.load)
        var names = events.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        if names.count == 2 && names[0] == names[1] { names = ["a", "b"] }
        var runs: [Run] = []
        for (index, path) in events.enumerated() {
            let file = index < files.count ? files[index] : files.count == 1 && files[0].count == 2 ? files[0] : nil
            let summary = file.map { $0.count == 2 ? $0[index] : $0[0] }
            runs.append(Run(title: index < titles.count ? titles[index] : names[index],
                            events: try SessionEvent.load(path: path), summary: summary))
        }
        return try HTMLReport(runs: runs)
    }

    /// Writes the page to `path` (replacing it whole, never half-written); returns its size in bytes.
    @discardableResult
    package func write(to path: String) throws -> Int {
        let bytes = Data(render().utf8)
        do {
            try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ReelError(.invalidInput, "cannot write the report to '\(path)': \(error.localizedDescription)")
        }
        return bytes.count
    }
}
