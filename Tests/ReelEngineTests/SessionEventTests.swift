import Foundation
import OrderedCollections
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia
import ReelNet
import Testing

/// The events file of a feed session: every kind round-trips through JSON, bad lines are named,
/// and play facts come out for the rules checker.
@Suite("Session events")
struct SessionEventTests {
    static let everyKind: [SessionEvent.Kind] = [
        .visibility(card: "s0/0", from: .idle, to: .mounted),
        .prefetchQueued(url: "http://h/a.m3u8", card: "s1/0", category: .nearby),
        .prefetchQueued(url: "http://h/b.m3u8", card: nil, category: .page),
        .prefetchStarted(url: "http://h/a.m3u8"),
        .prefetchDone(url: "http://h/a.m3u8", bytes: 1234),
        .prefetchCancelled(url: "http://h/seg.ts", bytes: 99),
        .fetch(url: "http://h/seg.ts", bytes: 5000, cacheBytes: 5000, cacheHit: true, origin: .playback, card: "s0/0"),
        .fetch(url: "http://h/t.jpg", bytes: 10, cacheBytes: 0, cacheHit: false, origin: .thumbnail, card: nil),
        .mount(card: "c3/1"),
        .unmount(card: "c3/1"),
        .playStart(card: "c3/1", widget: "c3", widgetType: .carousel, userIntent: true),
        .playStop(card: "c3/1", reason: .preview),
        .playStop(card: "c3/2", reason: .yielded),
        .firstFrame(card: "s0/0", ttffMs: 12.5, phases: TTFFBreakdown(manifestMs: 1, openMs: 2, totalMs: 12.5)),
        .stall(card: "s0/0", ms: 40),
        .variantSwitch(card: "s0/0", segment: 3, from: "http://h/720p/index.m3u8", to: "http://h/360p/index.m3u8",
                       reason: "down-throughput"),
        .error(card: nil, message: "boom"),
    ]

    @Test func everyKindRoundTripsThroughJSON() throws {
        for (index, kind) in Self.everyKind.enumerated() {
            let event = SessionEvent(time: Double(index) / 4, kind: kind)
            let text = JSONWriter.compact(event.json)
            #expect(try SessionEvent(json: try JSONParser.parse(text)) == event, "\(text)")
        }
    }

    @Test func stopReasonsAreNamedAsTheFileFormatSays() {
        let names = PlayStopReason.allCases.map(SessionEvent.fileReason)
        #expect(Set(names).isSubset(of: ["paused", "ended", "preview", "revoked"]))
        let event = SessionEvent(time: 1, kind: .playStop(card: "s0/0", reason: .userPaused))
        #expect(JSONWriter.compact(event.json).contains(#""reason":"paused","detail":"userPaused""#))
    }

    @Test func aBadLineIsNamedWithItsFileAndNumber() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{\"t\": 0, \"type\": \"mount\", \"card\": \"s0/0\"}\n\n{\"t\": 1, \"type\": \"warp\"}\n".utf8).write(to: url)
        let error = #expect(throws: ReelError.self) { try SessionEvent.load(path: url.path) }
        #expect(error?.message.contains("line 3") == true)
        #expect(error?.message.contains("unknown event type \"warp\"") == true)
        #expect(error?.message.contains(url.path) == true)
        #expect(throws: ReelError.self) { try SessionEvent.load(path: "/no/such/events.jsonl") }
    }

    @Test(arguments: ["1e30", "-5", "2.5", "\"many\""])
    func impossibleByteCountsAreRefused(bytes: String) throws {
        let line = #"{"t": 0, "type": "fetch", "url": "u", "bytes": "# + bytes + #", "cacheHit": false, "origin": "playback", "card": null}"#
        let error = #expect(throws: ReelError.self) { try SessionEvent(json: try JSONParser.parse(line)) }
        #expect(error?.message.contains("\"bytes\"") == true)
    }

    @Test func playFactsFeedTheRulesChecker() {
        let events = [
            SessionEvent(time: 0, kind: .mount(card: "s0/0")),
            SessionEvent(time: 0.1, kind: .playStart(card: "s0/0", widget: "s0", widgetType: .short, userIntent: false)),
            SessionEvent(time: 0.2, kind: .fetch(url: "u", bytes: 1, cacheBytes: 0, cacheHit: false, origin: .playback, card: "s0/0")),
            SessionEvent(time: 0.3, kind: .playStart(card: "s1/0", widget: "s1", widgetType: .short, userIntent: false)),
        ]
        let facts = events.compactMap(\.playFact)
        #expect(facts.count == 3)
        let violations = PlayRulesChecker.check(facts, maxSimultaneous: [.short: 1, .carousel: 3], isLowEnd: false)
        #expect(Set(violations.map(\.kind)) == [.startWithoutMount, .twoWidgets])
    }

    @Test func ratiosDivideEveryNumberOfTheSecondSummaryByTheFirst() {
        var a = SessionSummary()
        a.plays = 4
        a.ttffMs.p50 = 100
        a.cdn.bytes = 1000
        var b = a
        b.ttffMs.p50 = 20
        b.cdn.bytes = 1500
        let ratios = SessionSummary.ratios(a, b).object ?? [:]
        #expect(ratios["plays"] == .double(1))
        #expect(ratios["ttffMs.p50"] == .double(0.2))
        #expect(ratios["cdn.bytes"] == .double(1.5))
        #expect(ratios["frames"] == .null)
    }
}
