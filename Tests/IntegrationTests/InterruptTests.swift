#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ReelCore
import ReelEngine
import ReelServer
import ReelTestSupport
import Testing

/// Ctrl-C stops a long run cleanly, as ffmpeg does: the summary of what ran is printed, the
/// files asked for are written, and the exit status is 130. The signal is sent once the run is
/// seen working: the simulator serving it has answered its requests.
@Suite("Ctrl-C")
struct InterruptTests {
    @Test func aFeedRunStoppedByCtrlCPrintsAndWritesWhatRan() async throws {
        let folder = try makeScratchFolder("reel-interrupt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("out/events.jsonl"), summary = folder.appendingPathComponent("out/summary.json")
        let report = folder.appendingPathComponent("out/report.html")
        try await withSampleServer { server in
            let running = try await ReelProcess.start([
                "feed", "run", "--base-url", server.baseURL.absoluteString,
                "--feed", PackagePaths.samples.appendingPathComponent("video-feed.json").path,
                "--pattern", "browse", "--seconds", "60", "--events", events.path, "--summary", summary.path, "--report", report.path,
            ])
            // Playing: the first videos' segments have been served.
            let working = await server.waitForBill(limit: .seconds(90)) { bill in
                bill.paths.filter { $0.key.hasSuffix(".ts") }.count >= 2
            }
            #expect(working != nil, "the session never fetched a segment")
            kill(running.pid, SIGINT)
            let result = await running.finish()
            #expect(result.status == 130, "exit \(result.status): \(result.stderr)")
            #expect(result.stdout.contains("interrupted at") && result.stdout.contains("plays"), "\(result.stdout)")
            #expect(result.stderr.contains("stopping"), "\(result.stderr)")
            let ran = try SessionEvent.load(path: events.path)
            #expect(!ran.isEmpty && ran.contains { if case .fetch = $0.kind { true } else { false } }, "\(ran.count) events")
            let times = ran.map(\.time)
            #expect((times.max() ?? 60) < 55, "the events run to \(times.max() ?? 0) s: the trace was not stopped")
            let written = try SessionSummary.load(path: summary.path)
            #expect(written.count == 1)
            let json = try JSONParser.parse(bytes: try FileBytes.read(summary.path, what: "summary", code: .notFound))
            #expect(json["reelVersion"] != nil)
            #expect(FileManager.default.fileExists(atPath: report.path))
        }
    }

    @Test func aPlayStoppedByCtrlCPrintsItsReport() async throws {
        try await withSampleServer { server in
            let running = try await ReelProcess.start(["play", server.url(for: "streams/s12/index.m3u8").absoluteString, "--no-cache"])
            let working = await server.waitForBill(limit: .seconds(60)) { bill in
                bill.paths.filter { $0.key.hasSuffix(".m4s") }.count >= 2
            }
            #expect(working != nil, "the play never fetched a segment")
            kill(running.pid, SIGINT)
            let result = await running.finish()
            #expect(result.status == 130, "exit \(result.status): \(result.stderr)")
            #expect(result.stdout.contains("TTFF") && result.stdout.contains("Interrupted: stopped after"), "\(result.stdout)")
        }
    }
}
