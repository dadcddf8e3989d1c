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

    @Test("--serve a folder that does not exist fails with one line")
    func missingServeFolder() async throws {
        let result = try await ReelProcess.run(["feed", "run", "--serve", "/no/such/folder"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "reel feed run: cannot serve '/no/such/folder': no such folder\n")
    }
}
