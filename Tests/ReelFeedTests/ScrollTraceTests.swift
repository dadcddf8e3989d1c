import ReelCore
import ReelFeed
import Testing

@Suite("Scroll traces")
struct ScrollTraceTests {
    @Test("JSON lines with offsets, carousel offsets and taps")
    func parse() throws {
        let trace = try ScrollTrace.parse("""
        {"t": 0, "y": 0}

        {"t": 0.5, "y": 120.5, "x": {"c3": 40, "c12": 0}}
        {"t": 0.5, "y": 130, "tap": "s0/0"}
        """)
        #expect(trace.samples.count == 3)
        #expect(trace.samples[1].x == ["c3": 40, "c12": 0])
        #expect(trace.samples[1].line == 3)
        #expect(trace.samples[2].tap == "s0/0")
        #expect(try ScrollTrace.parse("").samples.isEmpty)
    }

    @Test("bad lines are rejected with their line number", arguments: [
        ("{\"t\": 0, \"y\": 0}\n{\"t\": 1, \"y\": 5}\n{\"t\": 0.5, \"y\": 6}", 3, "backwards"),
        ("{\"t\": 0, \"y\": 0}\n{\"t\": 1, \"y\": NaN}", 2, "NaN"),
        ("{\"t\": NaN, \"y\": 0}", 1, "NaN"),
        ("{\"t\": 0, \"y\": -1}", 1, "negative"),
        ("{\"t\": -1, \"y\": 0}", 1, "negative"),
        ("{\"t\": 0, \"y\": 0, \"x\": {\"c3\": -5}}", 1, "negative"),
        ("{\"t\": 0, \"y\": Infinity}", 1, "infinite"),
        ("{\"t\": 0}", 1, "missing \"y\""),
        ("{\"t\": 0, \"y\": \"10\"}", 1, "must be a number"),
        ("\n\n[1, 2]", 3, "JSON object"),
        ("{\"t\": 0, \"y\": 0,}", 1, "not valid JSON"),
        ("{\"t\": 0, \"y\": 0, \"tap\": 3}", 1, "card id"),
    ])
    func rejected(text: String, line: Int, reason: String) {
        do {
            _ = try ScrollTrace.parse(text, source: "trace.jsonl")
            Issue.record("expected an error")
        } catch let error as ReelError {
            #expect(error.code == .invalidTrace)
            #expect(error.message.contains("trace.jsonl line \(line):"), "\(error.message)")
            #expect(error.message.contains(reason), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("a cut trace lasts the seconds asked for and keeps the position it had then")
    func cut() throws {
        let trace = try ScrollTrace.parse("""
            {"t": 0, "y": 0}
            {"t": 1, "y": 100, "x": {"c3": 50}}
            {"t": 3, "y": 200, "tap": "s1/0"}
            {"t": 5, "y": 400}
            """)
        let four = trace.cut(after: 4)
        #expect(four.samples.map(\.time) == [0, 1, 3, 4])
        #expect(four.samples.last?.y == 200 && four.samples.last?.tap == nil && four.samples.last?.x.isEmpty == true)
        #expect(trace.cut(after: 3).samples.map(\.time) == [0, 1, 3], "a sample at the end itself needs no other")
        #expect(trace.cut(after: 10) == trace)
    }

    @Test("a missing trace file is an error")
    func missing() {
        #expect(throws: ReelError.self) { try ScrollTrace.load(path: "/nonexistent/trace.jsonl") }
    }
}
