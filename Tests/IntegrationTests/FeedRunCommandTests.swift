import Foundation
import OrderedCollections
import ReelCore
import ReelFeed
import ReelEngine
import ReelTestSupport
import Testing

/// `reel feed run` end to end: a short generated trace served from the samples in-process,
/// compared with prefetch off, writing both runs' events and one report; the events keep the play
/// rules (`reel feed check-events`), the JSON has the comparison's shape, and the report of the
/// real runs draws in headless Chromium. Bad input fails with one line.
@Suite("reel feed run")
struct FeedRunCommandTests {
    static let samples = PackagePaths.samples

    static func arguments(_ extra: [String]) -> [String] {
        ["feed", "run", "--serve", samples.path, "--feed", samples.appendingPathComponent("video-feed.json").path] + extra
    }

    @Test("--compare prefetch=off: {a, b, ratios}, both runs' events, one report that Chromium draws")
    func compareWritesEventsAndAReportThatRenders() async throws {
        let folder = try makeScratchFolder("reel-feed-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("events.jsonl"), page = folder.appendingPathComponent("report.html")
        let result = try await ReelProcess.run(Self.arguments([
            "--pattern", "mixed", "--seconds", "12", "--seed", "3", "--compare", "prefetch=off", "--json",
            "--events", events.path, "--report", page.path,
        ]), timeout: .seconds(180))
        #expect(result.status == 0, "reel feed run failed: \(result.stderr)")

        let json = try JSONParser.parse(result.stdout)
        let summaries = try SessionSummary.summaries(in: json)
        try #require(summaries.count == 2, "expected {a, b, ratios}: \(result.stdout)")
        guard case .object(let ratios)? = json["ratios"] else {
            Issue.record("no ratios object: \(result.stdout)")
            return
        }
        for key in ["plays", "ttffMs.p50", "startedWithin50msRatio", "cdn.bytes", "bytesPlayed", "prefetch.fetchedBytes", "peakRSSMB"] {
            #expect(ratios[key] != nil, "ratios lack \(key)")
        }
        #expect(summaries[1].prefetch.fetchedBytes == 0, "b runs with prefetch off")
        #expect(summaries.allSatisfy { $0.plays > 0 && $0.frames > 0 && $0.cdn.bytes > 0 }, "\(result.stdout)")

        let second = folder.appendingPathComponent("events-b.jsonl")
        for file in [events, second] {
            let check = try await ReelProcess.run(["feed", "check-events", file.path])
            #expect(check.status == 0, "\(file.lastPathComponent): \(check.stdout) \(check.stderr)")
            #expect(check.stdout.contains("every rule held"))
        }
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("b: prefetch=off"))
        #expect(!html.contains("<script") && !html.contains("src=\"http"))

        let shot = try await ReportScreenshot.take(page, in: folder)
        print("feed run report: \(shot.greyLevels) grey levels, \(Int(shot.inkedShare * 1000) / 10) % not white, marks \(shot.marks.sorted { $0.key < $1.key })")
        #expect(shot.greyLevels >= 64, "only \(shot.greyLevels) grey levels: the page looks blank")
        #expect(shot.inkedShare > 0.05, "only \(shot.inkedShare) of the pixels are not white")
        for name in ["active", "second run", "playback from the network"] {
            #expect(shot.marks[name, default: 0] >= 200, "the screenshot shows almost nothing of the colour of '\(name)'")
        }
    }

    @Test("one run prints the table and writes its events", .timeLimit(.minutes(3)))
    func oneRunPrintsATable() async throws {
        let folder = try makeScratchFolder("reel-feed-run-one")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("one.jsonl")
        let result = try await ReelProcess.run(Self.arguments([
            "--pattern", "browse", "--seconds", "6", "--profile", "wifi", "--events", events.path,
        ]), timeout: .seconds(120))
        #expect(result.status == 0, "\(result.stderr)")
        for row in ["plays", "TTFF p50", "started within 50 ms", "CDN bytes", "bytes played", "cache hit ratio", "peak RSS"] {
            #expect(result.stdout.contains(row), "no '\(row)' row in: \(result.stdout)")
        }
        #expect(result.stdout.contains("wrote \(events.path)"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("one-b.jsonl").path))
        #expect(try SessionEvent.load(path: events.path).count > 10)
    }

    @Test(arguments: [
        (["--pattern", "spiral"], 2, "unknown pattern 'spiral'"),
        (["--trace", "/no/such/trace.jsonl"], 2, "/no/such/trace.jsonl"),
        (["--base-url", "ftp://example.com/"], 2, "bad base URL 'ftp://example.com/'"),
        (["--base-url", "http://127.0.0.1:1/"], 3, "http://127.0.0.1:1/"),
        (["--profile", "5g"], 2, "unknown network profile '5g'"),
        (["--compare", "prefetch"], 2, "--compare wants key=value"),
        (["--compare", "decoder.poolSize=0"], 2, "decoder.poolSize"),
        (["--launch=-1"], 2, "--launch must be in [0, 60] seconds; got -1.0"),
        (["--launch", "90"], 2, "--launch must be in [0, 60] seconds; got 90.0"),
    ])
    func badInputFailsWithOneLine(extra: [String], status: Int32, names: String) async throws {
        let arguments = extra.contains("--base-url")
            ? ["feed", "run", "--feed", Self.samples.appendingPathComponent("video-feed.json").path] + extra
            : Self.arguments(extra)
        let result = try await ReelProcess.run(arguments, timeout: .seconds(60))
        #expect(result.status == status, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains(names), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "expected one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("reel feed run: "))
        #expect(result.stdout.isEmpty)
    }

    /// The bundled catalog behind `bad` entries, written to `folder`.
    static func catalog(_ bad: [[String: Any]], in folder: URL, keep: Bool = true) throws -> String {
        let data = try Data(contentsOf: samples.appendingPathComponent("video-feed.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [Any])
        let file = folder.appendingPathComponent("feed.json")
        try JSONSerialization.data(withJSONObject: bad + (keep ? entries : [])).write(to: file)
        return file.path
    }

    static func entry(_ url: String, ratio: String = "16:9") -> [String: Any] {
        ["video_source": ["url": url, "sourceType": "HLS"], "thumbail": ["aspectRatio": ratio, "dynamicImageUrl": "images/thumbs/s01.jpg"]]
    }

    @Test("bad entries at the top of the catalog are skipped, each named and counted", .timeLimit(.minutes(3)))
    func badEntriesAtTheTopAreSkipped() async throws {
        let folder = try makeScratchFolder("reel-feed-bad-top")
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = try Self.catalog([Self.entry("streams/s01/index.m3u8", ratio: "1e308:1"), Self.entry("ftp://example.test/v.m3u8"),
                                     Self.entry("streams/missing/index.m3u8")], in: folder)
        let result = try await ReelProcess.run(["feed", "run", "--serve", Self.samples.path, "--feed", feed, "--pattern", "browse",
                                                "--seconds", "5", "--profile", "wifi", "--json"], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("#0 (aspectRatio \"1e308:1\" is not between 1:10 and 10:1)"), "\(result.stderr)")
        #expect(result.stderr.contains("skipped entry #1 of") && result.stderr.contains("'ftp://example.test/v.m3u8' cannot be read"),
                "\(result.stderr)")
        #expect(result.stderr.contains("skipped entry #2 of") && result.stderr.contains("HTTP 404"), "\(result.stderr)")
        let summary = try #require(try SessionSummary.summaries(in: try JSONParser.parse(result.stdout)).first)
        #expect(summary.skippedVideos == 3)
        #expect(summary.plays > 0 && summary.errors == 0, "\(result.stdout)")
    }

    @Test("a catalog with nothing readable fails with one line")
    func nothingReadableFails() async throws {
        let folder = try makeScratchFolder("reel-feed-bad-all")
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = try Self.catalog([Self.entry("streams/missing/index.m3u8"), Self.entry("streams/gone/index.m3u8"),
                                     Self.entry("streams/s01/index.m3u8", ratio: "1:1e308")], in: folder, keep: false)
        let result = try await ReelProcess.run(["feed", "run", "--serve", Self.samples.path, "--feed", feed, "--pattern", "browse", "--seconds", "5"],
                                               timeout: .seconds(60))
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.last?.hasPrefix("reel feed run: cannot read any of the feed's 2 videos") == true
                && lines.last?.contains("HTTP 404") == true, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--serve a folder that does not exist fails with one line")
    func missingServeFolder() async throws {
        let result = try await ReelProcess.run(["feed", "run", "--serve", "/no/such/folder"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "reel feed run: cannot serve '/no/such/folder': no such folder\n")
    }
}
