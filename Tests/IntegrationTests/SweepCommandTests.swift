import Foundation
import OrderedCollections
import ReelCore
import ReelFeed
import ReelEngine
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
import ReelReport
#endif

/// `reel feed sweep` end to end on short real sessions: a sweep killed with SIGKILL resumes
/// where it stopped, shards run as separate processes merge into the whole, the report compares
/// settings with intervals, bad input fails with one line; a feed run's Chrome trace keeps the
/// format's rules.
@Suite("reel feed sweep")
struct SweepCommandTests {
    static let samples = PackagePaths.samples.path

    /// Two patterns, one seed, 3 s each, prefetch on and off: four cells of about four seconds.
    static func sweep(_ output: String, _ extra: [String] = []) -> [String] {
        ["feed", "sweep", "--serve", samples, "--feed", samples + "/video-feed.json", "--pattern", "browse,fling",
         "--seeds", "1", "--seconds", "3", "--profile", "wifi", "--vary", "prefetch=off", "--output", output] + extra
    }

    static func summaries(_ folder: URL) -> [String] {
        let cells = folder.appendingPathComponent("cells")
        return (FileManager.default.subpaths(atPath: cells.path) ?? []).filter { $0.hasSuffix("summary.json") }
    }

    @Test func aKilledSweepResumesAndItsReportComparesTheSettings() async throws {
        let folder = try makeScratchFolder("reel-sweep-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = try await ReelProcess.start(Self.sweep(folder.path))
        // A batch log prints a line per finished cell: kill the sweep after the first.
        let first = await running.waitForOutput { $0.contains("cell 1/4 done") }
        #expect(first, "no cell finished")
        kill(running.pid, SIGKILL)
        _ = await running.finish()
        let kept = Self.summaries(folder)
        #expect(!kept.isEmpty && kept.count < 4, "\(kept)")
        for path in kept {
            _ = try SessionSummary.load(path: folder.appendingPathComponent("cells/\(path)").path)
        }
        let resumed = try await ReelProcess.run(Self.sweep(folder.path), timeout: .seconds(300))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("\(kept.count) already done, \(4 - kept.count) ran, 0 failed"), "\(resumed.stdout)")
        #expect(Self.summaries(folder).count == 4)

        let page = folder.appendingPathComponent("report.html").path
        let report = try await ReelProcess.run(["feed", "sweep", "report", folder.path, "--json", "--html", page])
        #expect(report.status == 0, "\(report.stderr)")
        let json = try JSONParser.parse(report.stdout)
        #expect(json["cells"] == .int(4) && json["missingCells"] == .array([]) && json["failedCells"] == .array([]))
        let rows = try #require(json["comparisons"]?.array)
        let within = try #require(rows.first { $0["metric"]?.string == "startedWithin50msRatio" && $0["pattern"] == .null && $0["profile"] == .null })
        #expect(within["setting"]?.string == "prefetch=off" && within["value"]?["n"] == .int(2), "\(within)")
        #expect(within["baseline"]?["ciLow"]?.number != nil && within["value"]?["ciHigh"]?.number != nil, "\(within)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<svg") && html.contains("prefetch=off") && html.contains("cells/"))
    }

    @Test func shardsRunApartMergeIntoTheWhole() async throws {
        let root = try makeScratchFolder("reel-sweep-shards")
        defer { try? FileManager.default.removeItem(at: root) }
        let shards = (0..<2).map { root.appendingPathComponent("shard\($0)").path }
        for (index, shard) in shards.enumerated() {
            let result = try await ReelProcess.run(Self.sweep(shard, ["--shard", "\(index)/2", "--json"]), timeout: .seconds(300))
            #expect(result.status == 0, "\(result.stderr)")
            let outcome = try JSONParser.parse(result.stdout)
            #expect(outcome["owned"] == .int(2) && outcome["ran"] == .int(2), "\(result.stdout)")
        }
        let merged = root.appendingPathComponent("merged").path
        let partial = try await ReelProcess.run(["feed", "sweep", "merge", shards[0], "--output", merged, "--json"])
        let partialOutcome = try JSONParser.parse(partial.stdout)
        #expect(partial.status == 0 && partialOutcome["missingCells"]?.array?.count == 2, "\(partial.stdout)\(partial.stderr)")
        let whole = try await ReelProcess.run(["feed", "sweep", "merge"] + shards + ["--output", merged, "--json"])
        let wholeOutcome = try JSONParser.parse(whole.stdout)
        #expect(whole.status == 0 && wholeOutcome["missingCells"] == .array([]), "\(whole.stdout)\(whole.stderr)")
        #expect(Self.summaries(URL(fileURLWithPath: merged)).count == 4)
        // A folder of another sweep (another seed) is refused by name.
        let foreign = root.appendingPathComponent("foreign").path
        let matrixOnly = try await ReelProcess.run(Self.sweep(foreign, ["--seeds", "2", "--shard", "0/100"]))
        #expect(matrixOnly.status == 0, "\(matrixOnly.stderr)")
        let refused = try await ReelProcess.run(["feed", "sweep", "merge", shards[0], foreign, "--output", merged])
        #expect(refused.status == 2 && refused.stderr.contains(foreign) && refused.stderr.contains("another sweep"), "\(refused.stderr)")
    }

    @Test(arguments: [
        (["--pattern", "swirl"], "unknown pattern 'swirl'"),
        (["--pattern", "browse", "--profile", "5g"], "unknown network profile '5g'"),
        (["--pattern", "browse", "--vary", "prefetch.nothing=1"], "prefetch.nothing"),
        (["--pattern", "browse", "--vary", "prefetch.maxConcurrent=many"], "prefetch.maxConcurrent"),
        (["--pattern", "browse", "--shard", "2/2"], "shard 2 is outside 0..<2"),
        (["--pattern", "browse", "--shard", "auto"], "no batch index found"),
        ([String](), "give --trace FILE... or --pattern NAMES"),
    ])
    func badInputFailsWithOneLine(arguments: [String], says: String) async throws {
        let folder = try makeScratchFolder("reel-sweep-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ReelProcess.run(["feed", "sweep", "--serve", Self.samples, "--output", folder.path] + arguments,
                                               environment: ["JOB_COMPLETION_INDEX": "", "SLURM_ARRAY_TASK_ID": ""])
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(says), "\(arguments): \(result.stderr)")
    }

    /// A sweep of two traces and two settings on one profile whose four cells are done with
    /// `summary(cell)`, written at `url` without running a session.
    static func syntheticSweep(at url: URL, summary: (SweepCell) -> SessionSummary = { _ in SessionSummary() }) throws -> (SweepMatrix, SweepFolder) {
        let matrix = SweepMatrix(traces: [SweepTrace(pattern: "browse", seed: 1, seconds: 3), SweepTrace(pattern: "fling", seed: 1, seconds: 3)],
                                 profiles: ["wifi"], settings: [.baseline, SweepSetting(id: "prefetch=off", assignments: ["prefetch.enabled=false"])],
                                 shared: [])
        let folder = SweepFolder(url.path)
        try folder.writeMatrix(matrix)
        for cell in matrix.cells { try SweepFolder.write(JSONWriter.pretty(summary(cell).json), to: folder.summaryPath(cell.id)) }
        return (matrix, folder)
    }

    /// Rewrites the folder's `sweep.json` through `edit`.
    static func editMatrix(_ folder: SweepFolder, _ edit: (inout OrderedDictionary<String, JSONValue>) -> Void) throws {
        var json = try #require(try JSONParser.parse(bytes: FileBytes.read(folder.matrixPath, what: "matrix", code: .notFound)).object)
        edit(&json)
        try SweepFolder.write(JSONWriter.pretty(.object(json)), to: folder.matrixPath)
    }

    /// A crafted shard: a cell id that climbs out of `cells/`, made to resolve by a link in the
    /// shard (its `cells/` points two folders down, so `cells/../../victim` is the shard's own
    /// `victim/`), aimed at a folder outside both the shard and the output. The merge refuses it
    /// with exit 2 and touches nothing outside --output.
    @Test func aCraftedShardIsRefusedAndNothingOutsideTheOutputIsTouched() async throws {
        let root = try makeScratchFolder("reel-sweep-escape")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = FileManager.default
        try SweepFolder.write("keep\n", to: root.appendingPathComponent("victim/keep.txt").path)
        let shard = root.appendingPathComponent("shard"), payload = shard.appendingPathComponent("payload/x")
        let (matrix, folder) = try Self.syntheticSweep(at: shard)
        try files.createDirectory(at: payload.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.moveItem(at: shard.appendingPathComponent("cells"), to: payload)
        try files.createSymbolicLink(atPath: shard.appendingPathComponent("cells").path, withDestinationPath: payload.path)
        try SweepFolder.write(JSONWriter.pretty(SessionSummary().json), to: shard.appendingPathComponent("victim/summary.json").path)
        try SweepFolder.write("from the shard\n", to: shard.appendingPathComponent("victim/keep.txt").path)
        try Self.editMatrix(folder) { json in
            guard var cells = json["cells"]?.array, case .object(var last) = cells[cells.count - 1] else { return }
            last["id"] = .string("../../victim")
            cells[cells.count - 1] = .object(last)
            json["cells"] = .array(cells)
        }
        #expect(matrix.cells.count == 4)
        let output = root.appendingPathComponent("out").path
        let before = try FolderSnapshot.take(root, skipping: output)
        let result = try await ReelProcess.run(["feed", "sweep", "merge", shard.path, "--output", output])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("../../victim") && result.stderr.contains("its id is not"), "\(result.stderr)")
        #expect(try FolderSnapshot.take(root, skipping: output) == before, "the merge touched something outside --output")
        // The same shard with honest ids: the link in it is refused by name.
        try Self.editMatrix(folder) { json in json["cells"] = try? JSONValue(encoding: matrix.cells) }
        let honest = try FolderSnapshot.take(root, skipping: output)
        let linked = try await ReelProcess.run(["feed", "sweep", "merge", shard.path, "--output", output])
        #expect(linked.status == 2 && linked.stderr.contains("symbolic link"), "\(linked.stdout)\(linked.stderr)")
        #expect(try FolderSnapshot.take(root, skipping: output) == honest, "the merge touched something outside --output")
        let report = try await ReelProcess.run(["feed", "sweep", "report", shard.path])
        #expect(report.status == 2 && report.stderr.contains("symbolic link"), "\(report.stdout)\(report.stderr)")
    }

    /// A matrix listing a cell twice, or a cell naming a setting it does not have: report and
    /// merge fail with one line naming it, instead of counting the cell twice or dropping it.
    @Test(arguments: [("duplicate", "appears twice"), ("dangling", #"names setting "prefetch=off", which the matrix does not have"#)])
    func aMatrixThatContradictsItselfIsRefused(edit: String, says: String) async throws {
        let root = try makeScratchFolder("reel-sweep-lying")
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, folder) = try Self.syntheticSweep(at: root.appendingPathComponent("sweep"))
        try Self.editMatrix(folder) { json in
            if edit == "duplicate" {
                guard var cells = json["cells"]?.array, case .object(var first) = cells[0] else { return }
                first["index"] = .int(cells.count)
                cells.append(.object(first))
                json["cells"] = .array(cells)
            } else {
                json["settings"] = .array(Array((json["settings"]?.array ?? []).prefix(1)))
            }
        }
        let report = try await ReelProcess.run(["feed", "sweep", "report", folder.path, "--json"])
        #expect(report.status == 2 && report.stderr.contains(says) && report.stderr.split(separator: "\n").count == 1,
                "\(report.stdout)\(report.stderr)")
        let output = root.appendingPathComponent("out")
        let merge = try await ReelProcess.run(["feed", "sweep", "merge", folder.path, "--output", output.path])
        #expect(merge.status == 2 && merge.stderr.contains(says), "\(merge.stdout)\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "the merge wrote before it checked")
    }

    /// Counts at the ends of Int64 in the summaries (Int64.min wasted bytes against Int64.max):
    /// the report shows them instead of trapping.
    @Test func countsAtTheEndsOfInt64AreReportedNotTrappedOn() async throws {
        let root = try makeScratchFolder("reel-sweep-extremes")
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, folder) = try Self.syntheticSweep(at: root.appendingPathComponent("sweep")) { cell in
            var summary = SessionSummary()
            summary.prefetch.wastedBytes = cell.setting == "baseline" ? .max : .min
            summary.cdn.bytes = .max
            summary.bytesPlayed = 1
            return summary
        }
        let page = root.appendingPathComponent("report.html").path
        let result = try await ReelProcess.run(["feed", "sweep", "report", folder.path, "--json", "--html", page])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONParser.parse(result.stdout)["comparisons"]?.array)
        let waste = try #require(rows.first { $0["metric"]?.string == "prefetch.wastedBytes" && $0["pattern"] == .null && $0["profile"] == .null })
        #expect(waste["value"]?["mean"]?.number == Double(Int64.min) && waste["baseline"]?["mean"]?.number == Double(Int64.max), "\(waste)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("prefetch waste") && html.contains("e+18 B"), "the extreme figures are not on the page")
    }

    @Test func aReportOfAFolderThatIsNotASweepIsRefused() async throws {
        let folder = try makeScratchFolder("reel-sweep-empty")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ReelProcess.run(["feed", "sweep", "report", folder.path])
        #expect(result.status == 2 && result.stderr.contains("has no sweep.json"), "\(result.stderr)")
    }

    @Test func aFeedRunsChromeTraceKeepsTheFormatsRules() async throws {
        let folder = try makeScratchFolder("reel-trace-events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("trace.json").path
        let result = try await ReelProcess.run(["feed", "run", "--serve", Self.samples, "--feed", Self.samples + "/video-feed.json",
                                                "--pattern", "mixed", "--seconds", "6", "--profile", "wifi", "--trace-events", trace])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONParser.parse(bytes: try FileBytes.read(trace, what: "trace", code: .notFound))
        #expect(ChromeTraceRules.violations(json).isEmpty, "\(ChromeTraceRules.violations(json).prefix(5))")
        #expect((json["traceEvents"]?.array?.count ?? 0) > 50)
    }
}
