import Foundation
import OrderedCollections
import ReelCore
import ReelFeed
import ReelEngine
@testable import ReelReport
import Testing

/// Summary files read back: what `json` writes round-trips, a comparison gives both runs, and
/// a broken file is named with its cause.
@Suite("Session summary files")
struct SessionSummaryReadingTests {
    static func sample() -> SessionSummary {
        var summary = SessionSummary()
        summary.plays = 12
        summary.ttffMs.p50 = 18.25
        summary.ttffMs.p95 = 40.5
        summary.ttffMs.max = 61
        summary.startedWithin50msRatio = 0.9166
        summary.stalls.count = 2
        summary.stalls.totalMs = 350.5
        summary.frames = 1800
        summary.cdn.requests = 140
        summary.cdn.bytes = 12_345_678
        summary.bytesPlayed = 10_000_000
        summary.cacheHitRatio = 0.42
        summary.prefetch.fetchedBytes = 5_000_000
        summary.prefetch.usedBytes = 4_000_000
        summary.prefetch.wastedBytes = 1_000_000
        summary.decoders.created = 3
        summary.decoders.reused = 9
        summary.peakRSSMB = 180.5
        summary.errors = 1
        var bandwidth = SessionSummary.Bandwidth()
        bandwidth.estimateKbps = 5400
        bandwidth.samples = 31
        summary.bandwidth = bandwidth
        var abr = SessionSummary.ABR()
        abr.plays = 4
        abr.playedSeconds = 20
        abr.meanPlayedKbps = 1100
        abr.switchesUp = 1
        abr.switchesDown = 2
        summary.abr = abr
        return summary
    }

    static func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func whatJSONWritesReadsBack() throws {
        let summary = Self.sample()
        #expect(try SessionSummary(json: JSONParser.parse(JSONWriter.pretty(summary.json))) == summary)
        #expect(try SessionSummary(json: SessionSummary().json) == SessionSummary())
    }

    /// Summaries written before the meter and adaptive bitrate read with neither.
    @Test func anOlderSummaryReadsWithoutBandwidthOrABR() throws {
        guard case .object(var object) = Self.sample().json else {
            Issue.record("a summary is a JSON object")
            return
        }
        object["bandwidth"] = nil
        object["abr"] = nil
        let read = try SessionSummary(json: .object(object))
        #expect(read.bandwidth == nil && read.abr == nil && read.plays == 12)
    }

    /// A session where no play reached a first frame (a low-end device without taps) has no
    /// TTFF: null in JSON, "-" for people, and no ratio against a run that has one.
    @Test func aSessionWithoutFirstFramesHasNoTTFF() throws {
        let idle = SessionSummary(events: [SessionEvent(time: 1, kind: .mount(card: "s0/0"))])
        #expect(idle.ttffMs == Percentiles() && idle.startedWithin50msRatio == nil)
        let json = idle.json
        #expect(json["ttffMs"]?["p50"] == .null && json["ttffMs"]?["max"] == .null && json["startedWithin50msRatio"] == .null)
        #expect(try SessionSummary(json: JSONParser.parse(JSONWriter.pretty(json))) == idle)
        let ratios = SessionSummary.ratios(idle, Self.sample())
        #expect(ratios["ttffMs.p50"] == .null && ratios["startedWithin50msRatio"] == .null)
        let table = SessionSummary.table([(title: "idle", summary: idle), (title: "busy", summary: Self.sample())])
        let row = try #require(table.split(separator: "\n").first { $0.hasPrefix("TTFF p50") })
        #expect(row.split(separator: " ", omittingEmptySubsequences: true).suffix(4) == ["-", "18.2", "ms", "-"], "\(row)")
    }

    @Test func aComparisonGivesBothRuns() throws {
        var b = Self.sample()
        b.ttffMs.p50 = 300
        let compare = JSONValue.object(["a": Self.sample().json, "b": b.json, "ratios": SessionSummary.ratios(Self.sample(), b)])
        #expect(try SessionSummary.summaries(in: compare) == [Self.sample(), b])
        #expect(try SessionSummary.summaries(in: Self.sample().json) == [Self.sample()])
        let path = try Self.write(JSONWriter.pretty(compare))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SessionSummary.load(path: path).count == 2)
    }

    @Test func aBrokenSummaryIsNamed() throws {
        var fields = Self.sample().json.object!
        fields["stalls"] = .object(["count": .string("two"), "totalMs": .int(1)])
        let wrong = #expect(throws: ReelError.self) { try SessionSummary(json: .object(fields)) }
        #expect(wrong?.message.contains("\"stalls.count\" must be a whole number, found a string") == true, "\(String(describing: wrong))")
        fields.removeValue(forKey: "frames")
        fields["stalls"] = .object(["count": .int(1), "totalMs": .int(1)])
        let missing = #expect(throws: ReelError.self) { try SessionSummary(json: .object(fields)) }
        #expect(missing?.message.contains("missing \"frames\"") == true, "\(String(describing: missing))")
        #expect(throws: ReelError.self) { try SessionSummary(json: .array([])) }

        let path = try Self.write("{\"plays\": 1,")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let syntax = #expect(throws: ReelError.self) { try SessionSummary.load(path: path) }
        #expect(syntax?.message.contains(path) == true)
        #expect(syntax?.message.contains("not valid JSON") == true)
        let absent = #expect(throws: ReelError.self) { try SessionSummary.load(path: "/no/such/summary.json") }
        #expect(absent?.code == .notFound)
    }

    @Test func filesPairUpIntoRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let lines = SyntheticSession.events(widgets: 3, seconds: 6).map { JSONWriter.compact($0.json) }.joined(separator: "\n")
        let on = try write("on.jsonl", lines), off = try write("off.jsonl", lines)
        var b = Self.sample()
        b.plays = 99
        let compare = try write("compare.json", JSONWriter.compact(.object(["a": Self.sample().json, "b": b.json, "ratios": .object([:])])))
        let single = try write("single.json", JSONWriter.compact(b.json))

        let both = try HTMLReport.load(events: [on, off], summaries: [compare])
        #expect(both.runs.map(\.title) == ["on", "off"])
        #expect(both.runs.map { $0.summary?.plays } == [12, 99])
        let paired = try HTMLReport.load(events: [on, off], summaries: [single, compare], titles: ["first"])
        #expect(paired.runs.map(\.title) == ["first", "off"])
        #expect(paired.runs.map { $0.summary?.plays } == [99, 99])
        let alone = try HTMLReport.load(events: [on])
        #expect(alone.runs.count == 1 && alone.runs[0].summary == nil)
        #expect(try HTMLReport.load(events: [on, on]).runs.map(\.title) == ["a", "b"])
        #expect(throws: ReelError.self) { try HTMLReport.load(events: []) }
        #expect(throws: ReelError.self) { try HTMLReport.load(events: [on], summaries: [single, single]) }
    }
}
