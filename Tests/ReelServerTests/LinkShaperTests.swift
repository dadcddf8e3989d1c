@testable import ReelServer
import Testing

@Suite("Link pacing, on a manual clock")
struct LinkShaperTests {
    static let second: UInt64 = 1_000_000_000

    /// Sends `chunks` back to back, each when the link allows, and returns when the last one left.
    private func finishTime(_ link: inout LinkShaper, chunks: [Int], profile: NetworkProfile, start: UInt64 = 1_000) -> UInt64 {
        var now = start
        for chunk in chunks {
            now += link.take(chunk, profile: profile, epoch: 0, now: now)
        }
        return now - start
    }

    @Test func bodyNeverArrivesFasterThanTheRate() {
        var link = LinkShaper()
        // 100,000 bytes at 80 kbps (10,000 bytes/s): at least 10 s.
        let elapsed = finishTime(&link, chunks: Array(repeating: 1_000, count: 100), profile: NetworkProfile(bandwidthKbps: 80))
        #expect(elapsed >= 10 * Self.second)
        #expect(elapsed <= 10 * Self.second + 100)
    }

    @Test func idleTimeIsNotSavedUp() {
        var link = LinkShaper()
        let profile = NetworkProfile(bandwidthKbps: 8)
        _ = link.take(1_000, profile: profile, epoch: 0, now: 0)
        // One hour idle, then 1,000 bytes still take a second.
        #expect(link.take(1_000, profile: profile, epoch: 0, now: 3_600 * Self.second) == Self.second)
    }

    @Test func connectionsOfOneClientShareTheLink() {
        // Two connections take turns on one link: each chunk waits for the ones reserved before it.
        var link = LinkShaper()
        let profile = NetworkProfile(bandwidthKbps: 8)  // 1,000 bytes/s
        #expect(link.take(500, profile: profile, epoch: 0, now: 0) == Self.second / 2)
        #expect(link.take(500, profile: profile, epoch: 0, now: 0) == Self.second)
        #expect(link.take(1_000, profile: profile, epoch: 0, now: Self.second / 2) == Self.second + Self.second / 2)
    }

    @Test func aChunkSpanningStepsTakesEachStepsRate() throws {
        // 8 kbps (1,000 bytes/s) for 2 s, then 80 kbps (10,000 bytes/s).
        let trace = try BandwidthTrace(name: "t", steps: [.init(start: 0, kbps: 8, latencyMilliseconds: 0),
                                                          .init(start: 2, kbps: 80, latencyMilliseconds: 0),
                                                          .init(start: 100, kbps: 80, latencyMilliseconds: 0)])
        var link = LinkShaper()
        // 3,000 bytes from t = 1 s: 1,000 bytes until 2 s, then 2,000 bytes in 0.2 s.
        let wait = link.take(3_000, profile: NetworkProfile(trace: trace), epoch: 0, now: Self.second)
        #expect(wait == Self.second + Self.second / 5)
    }

    @Test func aStepWithoutBandwidthHoldsBytesUntilItEnds() throws {
        // A tunnel: nothing from 1 s to 4 s.
        let trace = try BandwidthTrace(name: "tunnel", steps: [.init(start: 0, kbps: 8, latencyMilliseconds: 0),
                                                               .init(start: 1, kbps: 0, latencyMilliseconds: 0),
                                                               .init(start: 4, kbps: 8, latencyMilliseconds: 0),
                                                               .init(start: 10, kbps: 8, latencyMilliseconds: 0)])
        var link = LinkShaper()
        // 1,500 bytes from 0: 1,000 by 1 s, nothing until 4 s, 500 more by 4.5 s.
        #expect(link.take(1_500, profile: NetworkProfile(trace: trace), epoch: 0, now: 0) == 4 * Self.second + Self.second / 2)
    }

    /// A looping trace of microsecond steps: its whole laps are counted at once, not step by step
    /// (a reservation spanning a million laps once stopped after a million steps, too early).
    @Test func aLoopOfMicrosecondStepsPacesAtItsRate() throws {
        // 8,000 kbps (1 byte per microsecond) for 1 us, then nothing for 1 us: 1 byte per 2 us lap.
        let trace = try BandwidthTrace(name: "flicker", steps: [.init(start: 0, kbps: 8_000, latencyMilliseconds: 0),
                                                                .init(start: 0.000001, kbps: 0, latencyMilliseconds: 0),
                                                                .init(start: 0.000002, kbps: 8_000, latencyMilliseconds: 0)])
        var link = LinkShaper()
        // 1,000,000 bytes: a million laps, the last one's silent microsecond not waited for.
        #expect(link.take(1_000_000, profile: NetworkProfile(trace: trace), epoch: 0, now: 0) == 2 * Self.second - 1_000)
    }

    /// The trace: 200,000 steps of 1 us alternating 8 and 16 Mbit/s; 85 KB take what the
    /// steps carry, computed by hand, and each reservation costs a search, not a walk.
    @Test func twoHundredThousandStepsOfAMicrosecond() throws {
        var steps: [BandwidthTrace.Step] = []
        for index in 0...200_000 {
            steps.append(.init(start: Double(index) / 1e6, kbps: index % 2 == 0 ? 8_000 : 16_000, latencyMilliseconds: 0))
        }
        let trace = try BandwidthTrace(name: "fine", steps: steps)
        let schedule = LinkSchedule(NetworkProfile(trace: trace))
        var link = LinkShaper()
        // 3 bytes per 2 us pair of steps; 85,002 bytes in 16 KB chunks: 28,334 pairs, 56,668 us.
        var now: UInt64 = 0
        var left = 85_002
        while left > 0 {
            let chunk = min(16_384, left)
            now += link.take(chunk, schedule: schedule, epoch: 0, now: now)
            left -= chunk
        }
        #expect(now == 56_668_000)
    }

    @Test func unlimitedNeverWaits() {
        var link = LinkShaper()
        #expect(link.take(1 << 30, profile: .unlimited, epoch: 0, now: 5) == 0)
    }
}
