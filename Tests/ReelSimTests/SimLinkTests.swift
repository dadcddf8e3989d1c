import Foundation
import ReelCore
import ReelServer
import ReelSim
import Testing

/// The simulated link against cases worked out by hand: a latency before each body, bodies
/// sharing the bandwidth evenly, a trace's steps, marks on the way.
@Suite("Simulated link")
struct SimLinkTests {
    /// 8,000 kbit/s is 1,000,000 bytes a second.
    static let fourG = NetworkProfile(name: "test", latencyMilliseconds: 50, bandwidthKbps: 8_000)

    /// Runs the link to its end, returning each event with its time.
    static func drain(_ link: inout SimLink) -> [(time: Double, event: SimLink.Event)] {
        var out: [(Double, SimLink.Event)] = []
        while let next = link.nextEvent() {
            for event in link.advance(to: next) { out.append((next, event)) }
        }
        return out
    }

    static func time(of id: Int, _ events: [(time: Double, event: SimLink.Event)]) throws -> Double {
        try #require(events.first { $0.event == .completed(id: id) }).time
    }

    @Test("one body: the latency, then its bytes at the link's rate")
    func oneBody() throws {
        var link = SimLink(profile: Self.fourG)
        link.start(id: 1, bytes: 1_000_000, marks: [300_000])
        let events = Self.drain(&link)
        #expect(abs(try Self.time(of: 1, events) - 1.05) < 1e-6)
        let mark = try #require(events.first { $0.event == .progress(id: 1, bytes: 300_000) })
        #expect(abs(mark.time - 0.35) < 1e-6)
    }

    @Test("bodies share the link evenly; one that starts later waits its latency first")
    func sharing() throws {
        var link = SimLink(profile: Self.fourG)
        link.start(id: 1, bytes: 1_000_000)
        // Alone from 0.05 to 0.6 (0.55 MB), then half the link each: 0.45 MB more takes 0.9 s.
        for event in link.advance(to: 0.55) { Issue.record("unexpected \(event)") }
        link.start(id: 2, bytes: 500_000)
        let events = Self.drain(&link)
        #expect(abs(try Self.time(of: 1, events) - 1.5) < 1e-6)
        // The second has 0.45 MB by then and takes the last 0.05 MB alone.
        #expect(abs(try Self.time(of: 2, events) - 1.55) < 1e-6)
    }

    @Test("a trace's steps: a body that spans them is sent at each step's rate")
    func traceSteps() throws {
        let trace = try BandwidthTrace.parse("0 8000 0\n1 800 0\n", name: "steps", end: .hold)
        var link = SimLink(profile: NetworkProfile(trace: trace))
        link.start(id: 1, bytes: 1_200_000)
        // 1 MB in the first second, the last 0.2 MB at 0.1 MB a second.
        #expect(abs(try Self.time(of: 1, Self.drain(&link)) - 3.0) < 1e-6)
    }

    @Test("a cancelled body keeps what it received")
    func cancel() {
        var link = SimLink(profile: Self.fourG)
        link.start(id: 1, bytes: 1_000_000)
        _ = link.advance(to: 0.25)
        #expect(link.cancel(1) == 200_000)
        #expect(link.nextEvent() == nil)
    }
}
