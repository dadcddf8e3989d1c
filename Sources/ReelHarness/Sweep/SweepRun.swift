import Foundation
import OrderedCollections
import ReelCore
import ReelEngine
import ReelFeed
import ReelNet
import ReelReport
import ReelServer

/// Runs the cells of a sweep that this shard owns and the folder does not hold yet, each as one
/// `FeedRun` (a fresh simulator and cache), one at a time unless `jobs` says more; writes each
/// cell's files with its summary last, so an interrupted sweep resumes where it stopped. A cell
/// whose session fails is recorded as failed with its message and the sweep goes on.
package struct SweepRun: Sendable {
    package var matrix: SweepMatrix
    package var folder: SweepFolder
    package var catalog: FeedCatalog
    /// The served folder (the streams and images of the catalog).
    package var served: URL
    /// The configuration every cell shares (`--config`, `--set`), under each setting's assignments.
    package var sources: [ConfigSource]
    package var faults: FaultInjection
    package var screen: Size?
    package var jobs = 1
    package var shard = SweepShard.whole
    /// Also write each cell's Chrome trace (`trace.json`).
    package var traceEvents = false
    /// Run again the cells recorded as failed.
    package var retryFailed = false
    /// Cancelled to stop the sweep (Ctrl-C): no cell starts after it, the running ones stop
    /// and are not recorded (a later run starts them again); finished cells stay.
    package var stop: Cancellation?
    /// The real engine in real time, or the simulation in virtual time.
    package var engine = FeedRunEngine.real

    package init(matrix: SweepMatrix, folder: SweepFolder, catalog: FeedCatalog, served: URL, sources: [ConfigSource],
                faults: FaultInjection, screen: Size?) {
        self.matrix = matrix
        self.folder = folder
        self.catalog = catalog
        self.served = served
        self.sources = sources
        self.faults = faults
        self.screen = screen
    }

    /// Where a sweep stands, for a progress line.
    package struct Progress: Sendable {
        package var total: Int
        package var skipped: Int
        package var done = 0
        package var failed = 0
        package var running = 0
        /// Seconds per cell so far, for the estimate of what is left.
        package var cellSeconds: [Double] = []
        /// The cell that just finished (nil when the report is of one starting), and whether it
        /// finished with a summary.
        package var finished: SweepCell?
        package var finishedOK = false
        /// Cells stopped by `stop` before their end, not recorded.
        package var stopped = 0

        package var remaining: Int { total - skipped - done - failed }

        /// Seconds left at the mean pace so far, spread over `jobs`; nil before a cell finished.
        package func eta(jobs: Int) -> Double? {
            guard !cellSeconds.isEmpty else { return nil }
            let mean = cellSeconds.reduce(0, +) / Double(cellSeconds.count)
            return mean * Double(remaining) / Double(max(1, jobs))
        }
    }

    /// What the run did.
    package struct Outcome: Sendable {
        package var progress: Progress
        /// Per cell run: its wall time less its trace's length (setting up and tearing down the
        /// simulator, the cache and the session, writing the files).
        package var overheadSeconds: [Double]
    }

    /// The cells this run owns and still has to run.
    package func pending() throws -> [SweepCell] {
        try matrix.cells.filter(shard.includes).filter { cell in
            switch try folder.status(of: cell) {
            case .done: false
            case .failed: retryFailed
            case .missing: true
            }
        }
    }

    package func run(progress report: @escaping @Sendable (Progress) -> Void = { _ in }) async throws -> Outcome {
        try folder.writeMatrix(matrix)
        let owned = matrix.cells.filter(shard.includes)
        let todo = try pending()
        let traces = try await scrollTraces(for: todo)
        let state = Locked(Outcome(progress: Progress(total: owned.count, skipped: owned.count - todo.count), overheadSeconds: []))
        report(state.withLock { $0.progress })
        var queue = todo[...]
        try await withThrowingTaskGroup(of: Void.self) { group in
            func startNext() {
                guard stop?.isCancelled != true, let cell = queue.popFirst() else { return }
                state.withLock {
                    $0.progress.running += 1
                    $0.progress.finished = nil
                }
                report(state.withLock { $0.progress })
                group.addTask {
                    let started = ContinuousClock.now
                    let ok = await runCell(cell, trace: traces[cell.trace]!)
                    let elapsed = (ContinuousClock.now - started).components
                    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                    let length = traces[cell.trace]?.samples.last?.time ?? 0
                    let snapshot = state.withLock { outcome -> Progress in
                        outcome.progress.running -= 1
                        guard let ok else {
                            outcome.progress.stopped += 1
                            outcome.progress.finished = nil
                            return outcome.progress
                        }
                        if ok { outcome.progress.done += 1 } else { outcome.progress.failed += 1 }
                        outcome.progress.cellSeconds.append(seconds)
                        outcome.overheadSeconds.append(max(0, seconds - length))
                        outcome.progress.finished = cell
                        outcome.progress.finishedOK = ok
                        return outcome.progress
                    }
                    report(snapshot)
                }
            }
            for _ in 0..<max(1, jobs) { startNext() }
            while try await group.next() != nil { startNext() }
        }
        return state.withLock { $0 }
    }

    /// Each trace the pending cells need, made once: a file cut to its length, or generated
    /// from its pattern and seed over the baseline configuration (so every setting runs the same
    /// scroll).
    private func scrollTraces(for cells: [SweepCell]) async throws -> [String: ScrollTrace] {
        let origin = FeedOrigin.serve(folder: served, profile: .unlimited, faults: .none)
        let baseline = try origin.configuration(sources).config
        let screen = self.screen ?? Size(screenOf: baseline)
        var traces: [String: ScrollTrace] = [:]
        for id in Set(cells.map(\.trace)) {
            guard let trace = matrix.trace(id) else { throw ReelError(.invalidInput, "sweep matrix names an unknown trace '\(id)'") }
            if let file = trace.file {
                let whole = try ScrollTrace.load(path: file)
                traces[id] = trace.seconds.map(whole.cut(after:)) ?? whole
            } else {
                guard let pattern = TracePattern(rawValue: trace.pattern) else {
                    throw ReelError(.invalidInput, "sweep matrix names an unknown pattern '\(trace.pattern)'")
                }
                traces[id] = ScrollTrace.generated(pattern, seconds: trace.seconds ?? 30, seed: trace.seed ?? 1, catalog: catalog,
                                                   config: baseline, screen: screen)
            }
        }
        return traces
    }

    /// Runs one cell and writes its files; false when its session failed (recorded in the
    /// folder), nil when `stop` ended it first (nothing recorded).
    private func runCell(_ cell: SweepCell, trace: ScrollTrace) async -> Bool? {
        do {
            let profile = try NetworkProfile.parse(cell.profile, allowOffline: false)
            guard let setting = matrix.setting(cell.setting) else {
                throw ReelError(.invalidInput, "cell \(cell.id) names an unknown setting")
            }
            let origin = FeedOrigin.serve(folder: served, profile: profile, faults: faults)
            let extra = setting.assignments.isEmpty ? [] : [ConfigSource.assignments(setting.assignments, from: "--vary")]
            let config = try ConfigResolver().resolve(origin.defaultLayers + sources + extra).config
            var request = FeedRunRequest(catalog: catalog, trace: trace, origin: origin, screen: screen ?? Size(screenOf: config))
            request.stop = stop
            request.engine = engine
            let result = try await FeedRun.run(request, config: config, title: "\(cell.setting) · \(cell.trace) · \(cell.profile)")
            if result.interrupted { return nil }
            try await write(cell, result)
            return true
        } catch {
            if stop?.isCancelled == true { return nil }
            let message = (error as? ReelError)?.description ?? "\(error)"
            let json = JSONValue.object(["cell": .string(cell.id), "message": .string(message)])
            try? SweepFolder.write(JSONWriter.pretty(json) + "\n", to: folder.failurePath(cell.id))
            return false
        }
    }

    /// The cell's events, report and trace, then its summary: the summary marks it done.
    private func write(_ cell: SweepCell, _ result: FeedRunResult) async throws {
        let folder = self.folder, traceEvents = self.traceEvents
        try await BlockingPool.shared.run {
            try FileManager.default.createDirectory(at: folder.cellFolder(cell.id), withIntermediateDirectories: true)
            try SessionEvent.write(result.events, to: folder.eventsPath(cell.id))
            let page = try HTMLReport(runs: [HTMLReport.Run(title: result.title, events: result.events, summary: result.summary)])
            try page.write(to: folder.reportPath(cell.id))
            if traceEvents {
                try SweepFolder.write(JSONWriter.compact(ChromeTrace.make(result.events)) + "\n", to: folder.tracePath(cell.id))
            }
            try? FileManager.default.removeItem(atPath: folder.failurePath(cell.id))
            try SweepFolder.write(JSONWriter.pretty(ReportJSON.versioned(result.summary.json)) + "\n", to: folder.summaryPath(cell.id))
        }
    }
}
