import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelTestSupport
import Testing

/// A feed run against a simulator that fails, resets and stalls 5 % of its responses each: the
/// session ends, keeps the play rules, and accounts for every play (a first frame, an error, or
/// a stop before its first frame). The long version's figures are in docs/feed-session.md.
@Suite("Fault soak")
struct FaultSoakTests {
    @Test func aFeedRunThroughFivePercentFailuresResetsAndStallsKeepsItsRules() async throws {
        let folder = try makeScratchFolder("reel-soak")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("events.jsonl").path
        let summaryPath = folder.appendingPathComponent("summary.json").path
        let result = try await ReelProcess.run(FeedRunCommandTests.arguments([
            "--pattern", "mixed", "--seconds", "12", "--seed", "4", "--profile", "wifi",
            "--fail-rate", "0.05", "--reset-rate", "0.05", "--stall-rate", "0.05", "--fault-seed", "9",
            "--set", "network.lowSpeedTimeMs=1500", "--events", events, "--summary", summaryPath,
        ]), timeout: .seconds(180))
        #expect(result.status == 0, "\(result.stderr)")
        let injected = try #require(result.stdout.split(separator: "\n").first { $0.contains("faults injected:") }, "\(result.stdout)")
        let summary = try #require(try SessionSummary.load(path: summaryPath).first)
        let loaded = try SessionEvent.load(path: events)
        let check = try await ReelProcess.run(["feed", "check-events", events])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // Every play is accounted for: a first frame, an error, or a stop before either.
        var open: Set<CardID> = []
        for event in loaded {
            switch event.kind {
            case .playStart(let play): open.insert(play.card)
            case .firstFrame(let frame): open.remove(frame.card)
            case .playStop(let stop): open.remove(stop.card)
            case .error(let failure): if let card = failure.card { open.remove(card) }
            default: break
            }
        }
        #expect(open.isEmpty, "plays with neither a first frame, an error nor a stop: \(open.sorted())")
        #expect(summary.plays > 0 && summary.frames > 0, "\(summary.json)")
        print("fault soak (12 s, 5 % each of 503s, resets and stalls): \(injected); \(summary.plays) plays, \(summary.errors) errors, TTFF p50 \(summary.ttffMs.p50 ?? .nan) ms p95 \(summary.ttffMs.p95 ?? .nan) ms, peak RSS \(summary.peakRSSMB) MB")
    }
}
