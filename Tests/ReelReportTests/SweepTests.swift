import Foundation
import OrderedCollections
import ReelCore
import ReelFeed
import ReelEngine
import ReelHarness
import ReelMedia
@testable import ReelReport
import ReelTestSupport
import Testing

/// The sweep's pieces without sessions: the matrix and its ids, intervals, the analysis against
/// the baseline, the results folder, shards, merging and the page, on synthetic summaries.
@Suite("Sweep")
struct SweepTests {
    static let traces = [SweepTrace(pattern: "browse", seed: 1, seconds: 10), SweepTrace(pattern: "browse", seed: 2, seconds: 10),
                         SweepTrace(pattern: "fling", seed: 1, seconds: 10), SweepTrace(pattern: "fling", seed: 2, seconds: 10)]
    static let settings = [SweepSetting.baseline, SweepSetting(id: "prefetch=off", assignments: ["prefetch.enabled=false"])]

    static func matrix(shared: [String] = []) -> SweepMatrix {
        SweepMatrix(traces: traces, profiles: ["4g", "3g"], settings: settings, shared: shared)
    }

    /// A summary whose figures follow from `within` and `ttff`.
    static func summary(within: Double, ttff: Double, cdn: Int64 = 1200, played: Int64 = 1000) -> SessionSummary {
        var summary = SessionSummary()
        summary.plays = 10
        summary.startedWithin50msRatio = within
        summary.ttffMs = Percentiles(count: 10, p50: ttff, p95: ttff * 2, p99: ttff * 2, max: ttff * 3)
        summary.cdn.bytes = cdn
        summary.bytesPlayed = played
        return summary
    }

    @Test func theMatrixCrossesTracesProfilesAndSettingsWithStableIds() {
        let matrix = Self.matrix()
        #expect(matrix.cells.count == 16)
        #expect(matrix.cells.map(\.index) == Array(0..<16))
        // Settings run fastest, so a shard of two gets both settings of a trace and profile.
        #expect(matrix.cells.prefix(2).map(\.setting) == ["baseline", "prefetch=off"])
        #expect(Set(matrix.cells.map(\.id)).count == 16)
        #expect(Self.matrix() == matrix, "the same inputs give the same ids")
        let other = Self.matrix(shared: ["set:device.isLowEnd=true"])
        #expect(other.id != matrix.id && Set(other.cells.map(\.id)).isDisjoint(with: matrix.cells.map(\.id)))
        #expect(matrix.baseline == .baseline)
    }

    @Test func intervalsAreStudentsT() throws {
        let figure = MeanInterval([1, 2, 3])
        #expect(figure.mean == 2 && figure.n == 3)
        let half = 4.303 * (1.0 / 3.0).squareRoot()
        let low = try #require(figure.ciLow), high = try #require(figure.ciHigh)
        #expect(abs(low - (2 - half)) < 1e-9 && abs(high - (2 + half)) < 1e-9)
        let one = MeanInterval([5])
        #expect(one.mean == 5 && one.ciLow == nil && one.ciHigh == nil)
        #expect(MeanInterval([]).mean == nil)
        #expect(MeanInterval([0.1, 0.1, 5], atLeast: 0).ciLow == 0)
    }

    @Test func theAnalysisPairsCellsAndListsFailedAndMissingOnes() throws {
        let matrix = Self.matrix()
        var summaries: [String: SessionSummary] = [:]
        var failures: [String: String] = [:]
        for cell in matrix.cells {
            let seed = Double(matrix.trace(cell.trace)?.seed ?? 0)
            if cell.setting == "baseline" {
                summaries[cell.id] = Self.summary(within: 0.9, ttff: 10 + seed, cdn: 1300)
            } else {
                summaries[cell.id] = Self.summary(within: 0.5, ttff: 150 + seed, cdn: 1000)
            }
        }
        // One setting cell failed, one baseline cell never ran: their pairs drop out.
        let failed = matrix.cells[1], missing = matrix.cells[2]
        summaries[failed.id] = nil
        failures[failed.id] = "boom"
        summaries[missing.id] = nil
        let analysis = SweepAnalysis(matrix: matrix, summaries: summaries, failures: failures)
        #expect(analysis.cells == 16 && analysis.failedCells == [.init(cell: failed.id, message: "boom")])
        #expect(analysis.missingCells == [missing.id])
        let overall = try #require(analysis.comparisons.first { $0.metric == "startedWithin50msRatio" && $0.pattern == nil && $0.profile == nil })
        #expect(overall.setting == "prefetch=off" && overall.baseline.n == 6 && overall.value.n == 6)
        #expect(overall.value.mean == 0.5 && overall.baseline.mean == 0.9)
        #expect(abs(try #require(overall.ratio) - 0.5 / 0.9) < 1e-12)
        let spread = (overall.difference.ciHigh ?? 1) - (overall.difference.ciLow ?? 0)
        #expect(overall.difference.mean.map { abs($0 + 0.4) < 1e-12 } == true && spread < 1e-9, "\(overall.difference)")
        let cdn = try #require(analysis.comparisons.first { $0.metric == "cdnBytesPerBytePlayed" && $0.pattern == nil && $0.profile == nil })
        #expect(cdn.baseline.mean.map { abs($0 - 1.3) < 1e-12 } == true && cdn.value.mean.map { abs($0 - 1.0) < 1e-12 } == true)
        // By pattern and by profile, every metric.
        #expect(Set(analysis.comparisons.map { $0.pattern ?? "-" }) == ["-", "browse", "fling"])
        #expect(Set(analysis.comparisons.map { $0.profile ?? "-" }) == ["-", "4g", "3g"])
        #expect(analysis.comparisons.count == (1 + 2 + 2) * SweepMetric.all.count)
        // The JSON has the documented shape.
        let json = try JSONValue(encoding: analysis)
        let row = try #require(json["comparisons"]?.array?.first?.object)
        #expect(Set(row.keys) == ["setting", "pattern", "profile", "metric", "baseline", "value", "ratio", "difference"])
        let baselineFields = try #require(row["baseline"]?.object)
        #expect(row["pattern"] == .null && Set(baselineFields.keys) == ["mean", "ciLow", "ciHigh", "n"])
    }

    /// A results folder of `matrix` (at `url`, or a scratch folder) whose cells `owned` say are
    /// done (synthetic summaries).
    static func folder(_ matrix: SweepMatrix, at url: URL? = nil, owned: (SweepCell) -> Bool = { _ in true }) throws -> SweepFolder {
        let folder = SweepFolder(try url?.path ?? makeScratchFolder("reel-sweep").path)
        try folder.writeMatrix(matrix)
        for cell in matrix.cells where owned(cell) {
            let summary = Self.summary(within: cell.setting == "baseline" ? 0.9 : 0.6, ttff: Double(cell.index))
            try SweepFolder.write(JSONWriter.pretty(summary.json), to: folder.summaryPath(cell.id))
        }
        return folder
    }

    @Test func theFolderKnowsDoneFailedAndMissingCellsAndNamesADamagedSummary() throws {
        let matrix = Self.matrix()
        let folder = try Self.folder(matrix) { $0.index < 4 }
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try SweepFolder.write(#"{"cell": "x", "message": "boom"}"#, to: folder.failurePath(matrix.cells[5].id))
        #expect(try folder.loadMatrix() == matrix)
        if case .done = try folder.status(of: matrix.cells[0]) {} else { Issue.record("cell 0 is done") }
        if case .failed(let message) = try folder.status(of: matrix.cells[5]) { #expect(message == "boom") } else { Issue.record("cell 5 failed") }
        if case .missing = try folder.status(of: matrix.cells[6]) {} else { Issue.record("cell 6 is missing") }
        // A cut summary is named, not read as empty.
        try Data("{\"plays\": 3,".utf8).write(to: URL(fileURLWithPath: folder.summaryPath(matrix.cells[1].id)))
        let error = #expect(throws: ReelError.self) { try folder.status(of: matrix.cells[1]) }
        #expect(error?.message.contains(folder.summaryPath(matrix.cells[1].id)) == true, "\(String(describing: error))")
        // Another matrix may not be written into it.
        let foreign = #expect(throws: ReelError.self) { try folder.writeMatrix(Self.matrix(shared: ["set:x=1"])) }
        #expect(foreign?.message.contains("another sweep") == true)
        #expect(throws: ReelError.self) { try SweepFolder(folder.url.appendingPathComponent("cells").path).loadMatrix() }
    }

    @Test func aTraceProfileOrSettingGivenTwiceCountsOnce() throws {
        let matrix = Self.matrix()
        let repeated = SweepMatrix(traces: Self.traces + [Self.traces[0]], profiles: ["4g", "3g", "4g"],
                                   settings: Self.settings + [.baseline], shared: [])
        #expect(repeated == matrix)
        let folder = try Self.folder(repeated)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        #expect(try folder.loadMatrix() == matrix)
    }

    /// Ways a `sweep.json` from elsewhere can lie about its cells, and what the error says.
    enum MatrixEdit: String, CaseIterable, Sendable {
        case escapingID, duplicateCell, danglingSetting, repeatedTrace, missingCell, foreignID

        var says: String {
            switch self {
            case .escapingID: #"cell 15 ("../../victim"): its id is not "#
            case .duplicateCell: "appears twice (cells 0 and 16)"
            case .danglingSetting: #"names setting "prefetch=off", which the matrix does not have"#
            case .repeatedTrace: #"trace "browse-s1-10s" is listed twice"#
            case .missingCell: "its 15 cells are not every trace × profile × setting"
            case .foreignID: "the hash of its cells"
            }
        }

        func apply(_ json: inout OrderedDictionary<String, JSONValue>) {
            var cells = json["cells"]?.array ?? []
            func with(_ value: JSONValue, _ key: String, _ new: JSONValue) -> JSONValue {
                guard case .object(var members) = value else { return value }
                members[key] = new
                return .object(members)
            }
            switch self {
            case .escapingID: cells[15] = with(cells[15], "id", .string("../../victim"))
            case .duplicateCell: cells.append(with(cells[0], "index", .int(16)))
            case .danglingSetting: json["settings"] = .array(Array((json["settings"]?.array ?? []).prefix(1)))
            case .repeatedTrace: json["traces"] = .array((json["traces"]?.array ?? []) + (json["traces"]?.array ?? []).prefix(1))
            case .missingCell: cells.removeLast()
            case .foreignID: json["id"] = .string("0123456789abcdef")
            }
            json["cells"] = .array(cells)
        }
    }

    /// A matrix read back is checked whole before any cell is looked at: a cell id is a folder
    /// name, so only the ids its content gives are accepted; a cell twice, or one naming a setting
    /// the matrix does not have, is an error (not counted twice, not dropped).
    @Test(arguments: MatrixEdit.allCases)
    func aMatrixFromElsewhereIsCheckedWhole(edit: MatrixEdit) throws {
        let folder = try Self.folder(Self.matrix())
        let output = SweepFolder(try makeScratchFolder("reel-sweep-merged").path)
        defer { for folder in [folder, output] { try? FileManager.default.removeItem(at: folder.url) } }
        var json = try #require(try JSONParser.parse(bytes: FileBytes.read(folder.matrixPath, what: "matrix", code: .notFound)).object)
        edit.apply(&json)
        try SweepFolder.write(JSONWriter.pretty(.object(json)), to: folder.matrixPath)
        let error = #expect(throws: ReelError.self) { try folder.loadMatrix() }
        #expect(error?.message.contains(folder.matrixPath) == true && error?.message.contains(edit.says) == true,
                "\(String(describing: error))")
        #expect(throws: ReelError.self) { try SweepMerge.merge([folder], into: output) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty, "the merge wrote before it checked")
    }

    /// Where a symbolic link is planted among a merge's folders.
    enum PlantedLink: String, CaseIterable, Sendable {
        /// The shard's `sweep.json`, its `cells/`, a cell's folder, a file in a cell; the output's cell folder.
        case matrix, cellsFolder, cellFolder, fileInCell, outputCell
    }

    /// A link in a shard (or in the output) is an error naming it, never followed: nothing
    /// outside the output changes, and no link is copied into it.
    @Test(arguments: PlantedLink.allCases)
    func aMergeFollowsNoLinkAndTouchesNothingOutsideItsOutput(link: PlantedLink) throws {
        let root = try makeScratchFolder("reel-sweep-links")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = FileManager.default
        let matrix = Self.matrix(), cell = matrix.cells[0]
        let shard = try Self.folder(matrix, at: root.appendingPathComponent("shard"))
        let output = SweepFolder(root.appendingPathComponent("out").path)
        // Outside both: a folder that looks like a cell failed (so a merge would replace it).
        let outside = root.appendingPathComponent("outside")
        try SweepFolder.write("keep\n", to: outside.appendingPathComponent("keep.txt").path)
        try SweepFolder.write(#"{"cell": "x", "message": "boom"}"#, to: outside.appendingPathComponent("failed.json").path)
        let planted: String
        switch link {
        case .matrix:
            planted = shard.matrixPath
            try files.moveItem(atPath: planted, toPath: outside.appendingPathComponent("sweep.json").path)
            try files.createSymbolicLink(atPath: planted, withDestinationPath: outside.appendingPathComponent("sweep.json").path)
        case .cellsFolder:
            planted = shard.url.appendingPathComponent("cells").path
            try files.moveItem(atPath: planted, toPath: outside.appendingPathComponent("cells").path)
            try files.createSymbolicLink(atPath: planted, withDestinationPath: outside.appendingPathComponent("cells").path)
        case .cellFolder:
            planted = shard.cellFolder(cell.id).path
            try files.removeItem(atPath: planted)
            try files.createSymbolicLink(atPath: planted, withDestinationPath: outside.path)
        case .fileInCell:
            planted = shard.eventsPath(cell.id)
            try files.createSymbolicLink(atPath: planted, withDestinationPath: outside.appendingPathComponent("keep.txt").path)
        case .outputCell:
            try output.writeMatrix(matrix)
            planted = output.cellFolder(cell.id).path
            try files.createDirectory(atPath: output.url.appendingPathComponent("cells").path, withIntermediateDirectories: true)
            try files.createSymbolicLink(atPath: planted, withDestinationPath: outside.path)
        }
        let before = try FolderSnapshot.take(root, skipping: output.path)
        let error = #expect(throws: ReelError.self) { try SweepMerge.merge([shard], into: output) }
        #expect(error?.message.contains(planted) == true && error?.message.contains("symbolic link") == true, "\(String(describing: error))")
        #expect(try FolderSnapshot.take(root, skipping: output.path) == before, "the merge touched something outside its output")
        let links = files.fileExists(atPath: output.path) ? try FolderSnapshot.links(under: output.url) : []
        #expect(links == (link == .outputCell ? [planted] : []), "\(links)")
        if [.matrix, .cellsFolder, .cellFolder].contains(link) {
            // The report reads the shard the same way (it reads no file but summary.json and failed.json).
            #expect(throws: ReelError.self) { _ = try shard.results(try shard.loadMatrix()) }
        }
    }

    @Test func shardsMergeIntoTheWholeAndAMissingShardOrAForeignFolderIsNamed() throws {
        let matrix = Self.matrix()
        let shards = try (0..<2).map { index in try Self.folder(matrix) { SweepShard(index: index, count: 2).includes($0) } }
        let output = SweepFolder(try makeScratchFolder("reel-sweep-merged").path)
        let foreign = try Self.folder(Self.matrix(shared: ["set:device.isLowEnd=true"]))
        defer { for folder in shards + [output, foreign] { try? FileManager.default.removeItem(at: folder.url) } }
        let partial = try SweepMerge.merge([shards[0]], into: output)
        #expect(partial.copied == 8 && partial.missing.count == 8)
        #expect(partial.missing.allSatisfy { $0.index % 2 == 1 })
        let whole = try SweepMerge.merge(shards, into: output)
        #expect(whole.copied == 8 && whole.missing.isEmpty)
        let (summaries, failures) = try output.results(matrix)
        #expect(summaries.count == 16 && failures.isEmpty)
        #expect(summaries[matrix.cells[3].id]?.ttffMs.p50 == 3)
        let error = #expect(throws: ReelError.self) { try SweepMerge.merge([shards[0], foreign], into: output) }
        #expect(error?.message.contains(foreign.path) == true && error?.message.contains("another sweep") == true)
    }

    @Test func shardsParseFromTheCommandLineAndTheBatchSystem() throws {
        #expect(try SweepShard(parsing: "1/4") == SweepShard(index: 1, count: 4))
        for bad in ["4/4", "-1/2", "1/0", "x", "1/2/3", ""] {
            #expect(throws: ReelError.self, "\(bad)") { try SweepShard(parsing: bad, environment: [:]) }
        }
        #expect(try SweepShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "2", "REEL_SHARD_COUNT": "4"])
                == SweepShard(index: 2, count: 4))
        #expect(try SweepShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4",
                                                             "SLURM_ARRAY_TASK_MIN": "1"]) == SweepShard(index: 2, count: 4))
        let noTotal = #expect(throws: ReelError.self) { try SweepShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "0"]) }
        #expect(noTotal?.message.contains("REEL_SHARD_COUNT") == true)
        #expect(throws: ReelError.self) { try SweepShard(parsing: "auto", environment: [:]) }
        // An index less its minimum that overflows is refused, not trapped on.
        let overflow = #expect(throws: ReelError.self) {
            try SweepShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_COUNT": "4",
                                                          "SLURM_ARRAY_TASK_MIN": "1"])
        }
        #expect(overflow?.message.contains("out of range") == true)
        let shard = SweepShard(index: 1, count: 3)
        #expect(Self.matrix().cells.filter(shard.includes).map(\.index) == [1, 4, 7, 10, 13])
    }

    /// The report of 1,000 cells: the analysis and the page, timed (the goal is under 5 s).
    @Test func aThousandCellReportIsMadeAndTimed() throws {
        let traces = (1...25).map { SweepTrace(pattern: ["browse", "fling", "carousel", "mixed"][$0 % 4], seed: UInt64($0), seconds: 30) }
        let settings = [SweepSetting.baseline] + (1...9).map { SweepSetting(id: "x=\($0)", assignments: ["prefetch.maxConcurrent=\($0)"]) }
        let matrix = SweepMatrix(traces: traces, profiles: ["wifi", "4g", "3g", "unlimited"], settings: settings, shared: [])
        #expect(matrix.cells.count == 1000)
        let folder = try Self.folder(matrix)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let clock = ContinuousClock()
        var page = ""
        let elapsed = try clock.measure {
            let loaded = try folder.loadMatrix()
            let (summaries, failures) = try folder.results(loaded)
            let analysis = SweepAnalysis(matrix: loaded, summaries: summaries, failures: failures)
            page = SweepPage(matrix: loaded, analysis: analysis, overall: SweepAnalysis.overall(matrix: loaded, summaries: summaries),
                             cellLinks: [:]).render()
        }
        #expect(page.contains("Feed sweep report") && page.contains("x=9"))
        print("sweep report of 1,000 synthetic cells (load, analysis, page): \(elapsed)")
    }
}

/// The Chrome trace of a session keeps the format's rules: a `B` is closed by an `E` on its
/// track, timestamps are whole microseconds and never go back on a track.
@Suite("Chrome trace")
struct ChromeTraceTests {
    @Test func aSessionsTraceKeepsTheFormatsRules() throws {
        let events = SyntheticSession.events(widgets: 30, seconds: 60)
        let trace = ChromeTrace.make(events)
        #expect(ChromeTraceRules.violations(trace).isEmpty, "\(ChromeTraceRules.violations(trace).prefix(10))")
        let parsed = try JSONParser.parse(JSONWriter.compact(trace))
        let all = try #require(parsed["traceEvents"]?.array)
        #expect(all.contains { $0["name"]?.string == "first frame" && $0["ph"]?.string == "i" })
        #expect(all.contains { $0["name"]?.string == "time to first frame" && $0["ph"]?.string == "B" })
        #expect(all.contains { $0["cat"]?.string == "prefetch" && $0["ph"]?.string == "B" })
        #expect(all.contains { $0["name"]?.string == "thread_name" && $0["args"]?["name"]?.string == "s0/0 state" })
    }

    @Test func touchingAndNestedSlicesStayNested() {
        // A first frame at 0.05 s whose phases reach back before 0: clamped at 0, nested.
        let events: [SessionEvent] = [
            SessionEvent(time: 0, kind: .visibility(card: "s0/0", from: .idle, to: .ready)),
            SessionEvent(time: 0, kind: .playStart(card: "s0/0", widget: "s0", widgetType: .short, userIntent: false)),
            SessionEvent(time: 0.05, kind: .firstFrame(card: "s0/0", ttffMs: 50,
                                                        phases: .init(manifestMs: 20, openMs: 30, firstFrameMs: 0.0004, totalMs: 80))),
            SessionEvent(time: 0.05, kind: .visibility(card: "s0/0", from: .ready, to: .active)),
            SessionEvent(time: 0.05, kind: .playStop(card: "s0/0", reason: .paused)),
            SessionEvent(time: 0.05, kind: .playStart(card: "s0/0", widget: "s0", widgetType: .short, userIntent: true)),
            SessionEvent(time: 0.06, kind: .firstFrame(card: "s0/0", ttffMs: 10, phases: .init(openMs: 30, totalMs: 30))),
        ]
        let trace = ChromeTrace.make(events)
        #expect(ChromeTraceRules.violations(trace).isEmpty, "\(ChromeTraceRules.violations(trace))")
    }
}
