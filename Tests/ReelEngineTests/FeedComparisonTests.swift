import OrderedCollections
import ReelCore
import ReelFeed
import ReelEngine
import ReelHarness
import Testing

/// `--compare key=value`: the override's shorthand, where the second run's events go, the
/// comparison's JSON, and the table people read.
@Suite("Feed comparison")
struct FeedComparisonTests {
    @Test(arguments: [
        ("prefetch=off", "prefetch.enabled=false"), ("prefetch=on", "prefetch.enabled=true"),
        ("prefetch=false", "prefetch.enabled=false"), ("decoder.poolSize=2", "decoder.poolSize=2"),
        ("device.isLowEnd=true", "device.isLowEnd=true"),
    ])
    func overrides(override: String, assignment: String) throws {
        #expect(try FeedComparison.assignment(override) == assignment)
    }

    @Test(arguments: ["prefetch", "=off", ""])
    func anOverrideWithoutKeyAndValueIsRefused(override: String) {
        #expect(throws: ReelError.self) { try FeedComparison.assignment(override) }
    }

    @Test(arguments: [
        ("out.jsonl", "out-b.jsonl"), ("runs/out.jsonl", "runs/out-b.jsonl"), ("/tmp/a.b/events", "/tmp/a.b/events-b"),
    ])
    func secondRunsEvents(first: String, second: String) {
        #expect(FeedComparison.secondEventsPath(first) == second)
    }

    @Test("the table shows both runs and b/a, with a dash over zero")
    func table() {
        var a = SessionSummary(), b = SessionSummary()
        a.plays = 10
        b.plays = 5
        a.ttffMs.p50 = 20
        b.ttffMs.p50 = 200
        let text = SessionSummary.table([("a", a), ("b: prefetch=off", b)])
        let lines = text.split(separator: "\n")
        #expect(lines[0].contains("b: prefetch=off") && lines[0].contains("b/a"))
        #expect(lines.contains { $0.hasPrefix("plays") && $0.hasSuffix("0.50") })
        #expect(lines.contains { $0.hasPrefix("TTFF p50") && $0.hasSuffix("10.0") })
        #expect(lines.contains { $0.hasPrefix("errors") && $0.hasSuffix("-") })
    }

    @Test("a summary counts plays, first frames within 50 ms, stalls and errors from the events")
    func summaryFromEvents() {
        let events: [SessionEvent] = [
            SessionEvent(time: 0, kind: .playStart(card: "s0/0", widget: "s0", widgetType: .short, userIntent: false)),
            SessionEvent(time: 0.01, kind: .firstFrame(card: "s0/0", ttffMs: 10)),
            SessionEvent(time: 1, kind: .playStart(card: "s1/0", widget: "s1", widgetType: .short, userIntent: true)),
            SessionEvent(time: 1.2, kind: .firstFrame(card: "s1/0", ttffMs: 200)),
            SessionEvent(time: 2, kind: .stall(card: "s1/0", ms: 300)),
            SessionEvent(time: 3, kind: .error(card: nil, message: "x")),
        ]
        let summary = SessionSummary(events: events)
        #expect(summary.plays == 2)
        #expect(summary.startedWithin50msRatio == 0.5)
        // Percentiles come from a histogram at three significant digits.
        #expect(abs((summary.ttffMs.p50 ?? 0) - 10) < 0.01 && abs((summary.ttffMs.max ?? 0) - 200) < 0.2, "\(summary.ttffMs)")
        #expect(summary.stalls.count == 1 && summary.stalls.totalMs == 300)
        #expect(summary.errors == 1)
    }
}
