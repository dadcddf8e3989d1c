import ArgumentParser
import Foundation
import OrderedCollections
import ReelCore
import ReelEngine
import ReelFeed
import ReelHarness
import ReelNet
import ReelReport
import ReelServer

extension FeedCommand {
    /// `reel feed sweep`: many feed sessions across traces, networks and settings, sharded for
    /// batch systems, merged, and compared with intervals.
    struct Sweep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the cross product of scroll traces, network profiles and settings as feed sessions, and compare.",
            discussion: """
                Each cell (a trace, a profile, a setting) is one feed session with a fresh cache and \
                simulator, as `reel feed run` runs it. Results go to --output DIR: sweep.json (the matrix) \
                and cells/<id>/ (summary.json, events.jsonl, report.html). A finished cell is not run \
                again, so an interrupted sweep resumes. `reel feed sweep merge` combines shards; `reel feed \
                sweep report` compares every setting with the baseline. See docs/sweep.md.
                """,
            subcommands: [RunCells.self, Merge.self, Report.self, Compare.self],
            defaultSubcommand: RunCells.self)
    }
}

extension FeedCommand.Sweep {
    struct RunCells: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run the cells of a sweep this shard owns that the results folder does not hold yet.")

        @OptionGroup var options: ConfigOptions
        @OptionGroup var feed: FeedCommand.FeedOptions

        @Option(name: .customLong("trace"), parsing: .upToNextOption,
                help: ArgumentHelp("Scroll trace files (JSON lines), each a trace of the sweep.", valueName: "file"))
        var traces: [String] = []

        @Option(help: ArgumentHelp("Generated traces: \(TracePattern.names) (comma-separated).", valueName: "names"))
        var pattern: String?

        @Option(help: ArgumentHelp("With --pattern: \(SeedList.help) Default 1.", valueName: "list"))
        var seeds = SeedList([1])

        @Option(help: ArgumentHelp("Length of generated traces (default 30); a trace file is cut to it when given.", valueName: "S"))
        var seconds: Double?

        @Option(help: ArgumentHelp("Network profiles of the simulator (comma-separated): wifi, 4g, 3g, unlimited, trace:FILE (a bandwidth trace).", valueName: "names"))
        var profile = "4g"

        @Option(name: .customLong("vary"), help: ArgumentHelp(
            "A setting per value on top of the baseline, e.g. prefetch=off or decoder.poolSize=2,4 (repeatable: they cross).",
            valueName: "key=v1,v2"))
        var vary: [String] = []

        @Option(help: ArgumentHelp("The results folder.", valueName: "dir"))
        var output = "reel-sweep"

        @Option(help: ArgumentHelp("Run only the cells of one shard: i/n, or auto (the batch system's index).", valueName: "i/n"))
        var shard: String?

        @Option(help: "Cells run at once (default 1: the machine's cores are the players'; more share the CPU and skew TTFF).")
        var jobs = 1

        @Option(help: ArgumentHelp("Serve this folder with the CDN simulator (default: Samples).", valueName: "dir"))
        var serve: String?

        @Flag(name: .customLong("cell-trace-events"), help: "Also write each cell's Chrome trace (cells/<id>/trace.json), for Perfetto.")
        var traceEvents = false

        @Flag(help: "Run again the cells recorded as failed.")
        var retryFailed = false

        @Option(help: ArgumentHelp(
            "real: each cell a real session in real time; simulate: each cell in virtual time on models of the link, players and cache (reel feed simulate), in milliseconds.",
            valueName: "real|simulate"))
        var engine = "real"

        @Flag(help: "Print the outcome as JSON.")
        var json = false

        @OptionGroup(title: "Faults the simulator injects") var faults: FaultOptions
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if jobs < 1 || jobs > 64 { throw ValidationError("--jobs must be in 1...64") }
            if let seconds, !(seconds > 0 && seconds <= 86_400) { throw ValidationError("--seconds must be in (0, 86400]") }
        }

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed sweep") { try await execute() }
        }

        private func execute() async throws {
            try OutputPaths.folder(URL(fileURLWithPath: output, isDirectory: true), for: "the sweep's results")
            let served = try serve ?? Installed.samplesFolder(option: "--serve DIR")
            let origin = try FeedOrigin.serve(path: served, profile: .unlimited, faults: faults.injection)
            guard case .serve(let servedFolder, _, _) = origin else { return }
            let baseline = try origin.configuration(options.sources)
            let matrix = try makeMatrix(origin: origin)
            let catalog = try feed.catalog(baseline.config)
            var sweep = SweepRun(matrix: matrix, folder: SweepFolder(output), catalog: catalog, served: servedFolder,
                                 sources: options.sources, faults: faults.injection,
                                 screen: feed.screen.flatMap(Size.init(parsing:)))
            sweep.jobs = jobs
            sweep.shard = try shard.map { try SweepShard(parsing: $0) } ?? .whole
            sweep.traceEvents = traceEvents
            sweep.retryFailed = retryFailed
            guard let engine = FeedRunEngine(rawValue: self.engine) else {
                throw ReelError(.invalidInput, "unknown --engine '\(self.engine)'; use real or simulate")
            }
            sweep.engine = engine
            if jobs > 1, engine == .real {
                ConfigOptions.warn("--jobs \(jobs): cells share the CPU, so their timings (TTFF above all) are not those of one session alone")
            }
            if pattern == nil && seeds != SeedList([1]) {
                ConfigOptions.warn("--seeds \(seeds) is ignored: it seeds generated traces (--pattern)")
            }
            let interruption = Interruption()
            sweep.stop = interruption.stop
            let line = ProgressLine(terminal: isatty(STDERR_FILENO) != 0, log: !json, jobs: jobs)
            let outcome = try await sweep.run { line.show($0) }
            line.finish()
            let overhead = Distribution(outcome.overheadSeconds.map { $0 * 1000 })
            let progress = outcome.progress
            if json {
                let result: JSONValue = .object([
                    "matrix": .string(matrix.id), "cells": .int(matrix.cells.count), "shard": .string(sweep.shard.description),
                    "owned": .int(progress.total), "alreadyDone": .int(progress.skipped), "ran": .int(progress.done),
                    "failed": .int(progress.failed), "stopped": .int(progress.stopped), "overheadMsPerCell": try JSONValue(encoding: overhead.percentiles),
                    "output": .string(sweep.folder.path),
                ])
                print(CLIOutput.jsonText(result))
            } else {
                print("sweep \(matrix.id): \(matrix.cells.count) cells (\(matrix.traces.count) traces × \(matrix.profiles.count) profiles × \(matrix.settings.count) settings); shard \(sweep.shard): \(progress.total) cells, \(progress.skipped) already done, \(progress.done) ran, \(progress.failed) failed")
                if let p50 = overhead.p50 {
                    print("overhead per cell (all but the session itself): p50 \(Human.ms(p50)), max \(Human.ms(overhead.max))")
                }
                print("results: \(sweep.folder.path) (reel feed sweep report \(sweep.folder.path) --html report.html)")
                if interruption.signal != nil {
                    print("interrupted: \(progress.stopped) running cell\(progress.stopped == 1 ? " was" : "s were") stopped and not recorded; the same command resumes the sweep")
                }
            }
            try interruption.exitIfInterrupted()
        }

        /// The traces, profiles and settings crossed; errors name a pattern, profile or key
        /// that does not exist.
        private func makeMatrix(origin: FeedOrigin) throws -> SweepMatrix {
            var sweepTraces: [SweepTrace] = []
            for file in traces {
                let bytes = try FileBytes.read(file, what: "trace file", code: .invalidTrace)
                _ = try ScrollTrace.load(path: file)
                sweepTraces.append(SweepTrace(file: URL(fileURLWithPath: file).standardizedFileURL.path, contents: bytes, seconds: seconds))
            }
            for name in Self.list(pattern) {
                guard TracePattern(rawValue: name) != nil else {
                    throw ReelError(.invalidInput, "unknown pattern '\(name)' (use \(TracePattern.names))")
                }
                for seed in seeds.seeds { sweepTraces.append(SweepTrace(pattern: name, seed: seed, seconds: seconds ?? 30)) }
            }
            guard !sweepTraces.isEmpty else { throw ReelError(.invalidInput, "give --trace FILE... or --pattern NAMES") }
            let profiles = Self.list(profile)
            var traceHashes: [String] = []
            for name in profiles {
                // A trace's content is part of the matrix: an edited trace file is another sweep.
                if let trace = try NetworkProfile.parse(name, allowOffline: false).trace {
                    traceHashes.append("profile:\(name)#\(String(XXHash64.hash("\(trace)"), radix: 16))")
                }
            }
            guard !profiles.isEmpty else { throw ReelError(.invalidInput, "--profile names no profile") }
            let settings = try Self.settings(vary)
            for setting in settings where !setting.assignments.isEmpty {
                // A setting's key must exist and its value read, before any cell runs.
                _ = try origin.configuration(options.sources + [.assignments(setting.assignments, from: "--vary")])
            }
            var shared: [String] = []
            for file in options.configFiles {
                let bytes = try FileBytes.read(file, what: "config file", code: .invalidConfig)
                shared.append("config#\(String(XXHash64.hash(bytes), radix: 16))")
            }
            shared += options.assignments.map { "set:\($0)" }
            if !faults.injection.isEmpty { shared.append("faults:\(faults.injection)") }
            if let screen = feed.screen { shared.append("screen:\(screen)") }
            shared += traceHashes
            return SweepMatrix(traces: sweepTraces, profiles: profiles, settings: settings, shared: shared)
        }

        static func list(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        /// The baseline, then one setting per value of each `--vary`, crossed with the others.
        static func settings(_ vary: [String]) throws -> [SweepSetting] {
            var axes: [[String?]] = []
            for option in vary {
                guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
                    throw ReelError(.invalidInput, "--vary wants key=v1,v2 (such as prefetch=off); got '\(option)'")
                }
                let key = option[..<equals]
                let values = list(String(option[option.index(after: equals)...]))
                guard !values.isEmpty else { throw ReelError(.invalidInput, "--vary \(key): no value given") }
                axes.append([nil] + values.map { "\(key)=\($0)" })
            }
            var combinations: [[String]] = [[]]
            for axis in axes {
                combinations = combinations.flatMap { prefix in axis.map { value in prefix + (value.map { [$0] } ?? []) } }
            }
            var settings: [SweepSetting] = []
            var seen: Set<String> = []
            for combination in combinations {
                let id = combination.isEmpty ? "baseline" : combination.joined(separator: " ")
                guard seen.insert(id).inserted else { continue }
                settings.append(SweepSetting(id: id, assignments: try combination.map(FeedComparison.assignment)))
            }
            return settings
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Combine the results folders of a sweep's shards into one; refuses folders of another sweep.",
            discussion: """
                Each folder's sweep.json is checked whole first: every cell id must be the hash of its trace, \
                profile and setting, appear once, and name what the matrix has; otherwise the merge fails \
                (exit 2) naming the cell. A symbolic link inside any folder is refused by name, never followed. \
                The merge writes only under --output, each cell copied beside its place and renamed in.
                """)

        @Argument(help: ArgumentHelp("Results folders of the shards.", valueName: "dir"))
        var inputs: [String]

        @Option(help: ArgumentHelp("The merged results folder.", valueName: "dir"))
        var output: String

        @Flag(help: "Print the outcome as JSON.")
        var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed sweep merge") {
                let inputs = self.inputs.map(SweepFolder.init), output = SweepFolder(self.output)
                let outcome = try await BlockingPool.shared.run { try SweepMerge.merge(inputs, into: output) }
                if json {
                    print(CLIOutput.jsonText(.object([
                        "matrix": .string(outcome.matrix.id), "cells": .int(outcome.matrix.cells.count), "copied": .int(outcome.copied),
                        "missingCells": .array(outcome.missing.map { .string($0.id) }), "output": .string(output.path),
                    ])))
                } else {
                    print("merged \(inputs.count) folders into \(output.path): \(outcome.copied) cells copied, \(outcome.missing.count) of \(outcome.matrix.cells.count) missing")
                    for cell in outcome.missing.prefix(20) {
                        print("missing: \(cell.id) (trace \(cell.trace), profile \(cell.profile), setting \(cell.setting), index \(cell.index))")
                    }
                    if outcome.missing.count > 20 { print("missing: ... and \(outcome.missing.count - 20) more") }
                }
            }
        }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare every setting of a sweep with its baseline: means over cells with 95% intervals.")

        @Argument(help: ArgumentHelp("The results folder.", valueName: "dir"))
        var folder: String

        @Flag(help: "Print {cells, failedCells, missingCells, comparisons} as JSON.")
        var json = false

        @Option(help: ArgumentHelp("Write the HTML page (self-contained) to this file.", valueName: "file.html"))
        var html: String?

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed sweep report") {
                try OutputPaths.prepare([(html, "the sweep's page")])
                let folder = SweepFolder(self.folder), html = self.html
                let (analysis, matrix) = try await BlockingPool.shared.run { () -> (SweepAnalysis, SweepMatrix) in
                    let matrix = try folder.loadMatrix()
                    let (summaries, failures) = try folder.results(matrix)
                    let analysis = SweepAnalysis(matrix: matrix, summaries: summaries, failures: failures)
                    if let html {
                        let page = SweepPage(matrix: matrix, analysis: analysis,
                                             overall: SweepAnalysis.overall(matrix: matrix, summaries: summaries),
                                             cellLinks: Self.links(matrix, summaries: summaries, folder: folder, page: html))
                        try SweepFolder.write(page.render(), to: html)
                    }
                    return (analysis, matrix)
                }
                if json {
                    print(CLIOutput.jsonText(try JSONValue(encoding: analysis)))
                    return
                }
                print(Self.text(analysis, matrix: matrix))
                if let html { print("wrote \(html)") }
            }
        }

        /// Each finished cell's report, relative to the page when it sits under the same folder.
        static func links(_ matrix: SweepMatrix, summaries: [String: SessionSummary], folder: SweepFolder, page: String) -> [String: String] {
            let pageFolder = URL(fileURLWithPath: page).standardizedFileURL.deletingLastPathComponent().path
            var links: [String: String] = [:]
            for cell in matrix.cells where summaries[cell.id] != nil {
                let report = folder.reportPath(cell.id)
                links[cell.id] = report.hasPrefix(pageFolder + "/") ? String(report.dropFirst(pageFolder.count + 1)) : "file://" + report
            }
            return links
        }

        /// The comparisons over every cell, one line per setting and metric.
        static func text(_ analysis: SweepAnalysis, matrix: SweepMatrix) -> String {
            var lines = ["sweep \(matrix.id): \(analysis.cells) cells, \(analysis.failedCells.count) failed, \(analysis.missingCells.count) missing"]
            for failed in analysis.failedCells.prefix(10) { lines.append("failed: \(failed.cell): \(failed.message)") }
            for row in analysis.comparisons where row.pattern == nil && row.profile == nil {
                guard let metric = SweepMetric.named(row.metric) else { continue }
                let ratio = SweepPage.ratio(row, metric.unit)
                lines.append("\(row.setting) | \(metric.label): \(SweepPage.interval(row.value, metric.unit)) vs baseline \(SweepPage.interval(row.baseline, metric.unit)), \(ratio)")
            }
            if matrix.settings.count < 2 { lines.append("(one setting: nothing to compare; add --vary)") }
            return lines.joined(separator: "\n")
        }
    }
}

extension FeedCommand.Sweep {
    /// `reel feed sweep compare A B`: one matrix run twice, compared cell by cell.
    struct Compare: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two results folders of one sweep cell by cell (before and after a change, or two builds).",
            discussion: """
                Both folders must hold the same matrix (the same traces, profiles and settings). For \
                every metric: the mean over the cells both finished on each side with its 95% \
                interval, and the paired difference (b minus a) with its interval; "within" when \
                that interval contains 0 (the change moved nothing at 95%), over every cell and by \
                pattern and profile.
                """)

        @Argument(help: ArgumentHelp("The first results folder (a: before).", valueName: "a"))
        var a: String

        @Argument(help: ArgumentHelp("The second results folder (b: after).", valueName: "b"))
        var b: String

        @Flag(help: "Print {pairs, unpaired, rows: [{pattern, profile, metric, a, b, difference}]} as JSON.")
        var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed sweep compare") {
                let (first, second) = (SweepFolder(a), SweepFolder(b))
                let comparison = try await BlockingPool.shared.run { () -> SweepFolderComparison in
                    let matrix = try first.loadMatrix(), other = try second.loadMatrix()
                    guard matrix.id == other.id else {
                        throw ReelError(.invalidInput, "'\(first.path)' and '\(second.path)' hold different sweeps (\(matrix.id), \(other.id)): compare one matrix run twice")
                    }
                    return SweepFolderComparison(matrix: matrix, a: try first.results(matrix).summaries, b: try second.results(other).summaries)
                }
                if json {
                    print(JSONWriter.pretty(try JSONValue(encoding: comparison)))
                    return
                }
                print(Self.text(comparison))
            }
        }

        static func text(_ comparison: SweepFolderComparison) -> String {
            var lines = ["\(comparison.pairs) cells in both, \(comparison.unpaired.count) in one only"]
            for row in comparison.rows {
                guard let metric = SweepMetric.named(row.metric) else { continue }
                let group = row.pattern ?? row.profile ?? "all"
                let verdict = row.withinInterval.map { $0 ? "within" : "CHANGED" } ?? "too few"
                lines.append("\(group) | \(metric.label): a \(SweepPage.interval(row.a, metric.unit)), b \(SweepPage.interval(row.b, metric.unit)), "
                             + "b-a \(SweepPage.interval(row.difference, metric.unit)) \(verdict)")
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// The sweep's progress: on a terminal, one line rewritten in place (cells done, running,
/// failed, the time left); otherwise (a batch job's log) a line per finished cell on stdout.
final class ProgressLine: Sendable {
    let enabled: Bool
    let log: Bool
    let jobs: Int

    init(terminal: Bool, log: Bool, jobs: Int) {
        self.enabled = terminal
        self.log = log && !terminal
        self.jobs = jobs
    }

    func show(_ progress: SweepRun.Progress) {
        if log, let cell = progress.finished {
            let count = progress.done + progress.failed
            print("cell \(count)/\(progress.total - progress.skipped) \(progress.finishedOK ? "done" : "failed"): \(cell.id) (trace \(cell.trace), profile \(cell.profile), setting \(cell.setting))")
            fflush(nil)
        }
        guard enabled else { return }
        var text = "sweep: \(progress.done + progress.failed)/\(progress.total - progress.skipped) cells (\(progress.running) running, \(progress.failed) failed"
        if progress.skipped > 0 { text += ", \(progress.skipped) already done" }
        text += ")"
        if let eta = progress.eta(jobs: jobs) { text += ", about \(Int(eta.rounded())) s left" }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
