import Foundation
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// The events `reel launch simulate` replays: JSON lines of {t, event}, refused with the line.
@Suite("Launch event log")
struct LaunchEventLogTests {
    @Test func readsTheSamplesWeek() throws {
        let events = try LaunchEventLog.load(path: LaunchSamples.path("week.jsonl"))
        #expect(events.count == 28)
        #expect(events.first == LaunchEvent(time: date("2026-11-24T08:00:00Z"), kind: .launch))
        #expect(events.filter { $0.kind == .crash }.count == 1)
    }

    @Test(arguments: [
        ("{\"t\": \"2026-11-24T08:00:00Z\", \"event\": \"launch\"}\nnope", "line 2: not valid JSON"),
        ("\n\n[1]", "line 3: expected a JSON object, found an array"),
        ("{\"event\": \"launch\"}", "line 1: missing \"t\""),
        ("{\"t\": 5, \"event\": \"launch\"}", "line 1: missing \"t\""),
        ("{\"t\": \"tomorrow\", \"event\": \"launch\"}", "line 1: \"t\" 'tomorrow' is not an ISO 8601 date"),
        ("{\"t\": \"2026-11-24T08:00:00Z\"}", "line 1: missing \"event\""),
        ("{\"t\": \"2026-11-24T08:00:00Z\", \"event\": \"resume\"}", "line 1: event 'resume' is not one of launch, foreground, background, crash"),
        ("{\"t\": \"2026-11-24T08:00:00Z\", \"event\": \"launch\"}\n{\"t\": \"2026-11-24T07:00:00Z\", \"event\": \"background\"}",
         "line 2: time goes backwards"),
        ("\n  \n", "holds no events"),
    ])
    func badLinesAreRefusedByNumber(text: String, reason: String) throws {
        let error = try #require(throws: ReelError.self) { try LaunchEventLog.parse(Array(text.utf8), source: "events 'x.jsonl'") }
        #expect(error.code == .invalidTrace)
        #expect(error.message.hasPrefix("events 'x.jsonl'") && error.message.contains(reason), "\(error.message)")
    }
}
