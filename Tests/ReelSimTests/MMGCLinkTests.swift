import ReelSim
import Testing

/// The challenge's link against cases worked out by hand: 95 % of the bandwidth carries payload,
/// row i's bandwidth holds until row i's time (row 0's is never used), 80 ms per request, whole
/// milliseconds, the strict "more than the chunk" test, the wrap to row 1 at time 0, and trace
/// time that stands still between transfers.
@Suite("MMGC link")
struct MMGCLinkTests {
    /// Rows at 0, 1 and 2 s; 8 Mbit/s (950,000 payload bytes/s) in the first second, 4 Mbit/s
    /// (475,000) in the second; row 0's 1 Mbit/s is never used.
    static let trace = MMGCTrace(name: "hand", seconds: [0, 1, 2], mbps: [1, 8, 4])

    @Test func aTransferWithinOneRowTakesItsBytesOverThePayloadRatePlusTheRequest() {
        var link = MMGCLink(trace: Self.trace)
        // 475,000 bytes at 950,000 bytes/s: 0.5 s, plus 80 ms.
        #expect(link.transfer(475_000) == 580)
        #expect(link.row == 1 && link.traceTime == 0.5)
    }

    @Test func aTransferCrossesRowsAndWrapsToRowOneAtTimeZero() {
        var link = MMGCLink(trace: Self.trace)
        _ = link.transfer(475_000)
        // From 0.5 s: 475,000 bytes fill row 1's rest; row 2 carries exactly 475,000 more, which
        // is not *more* than what is left, so the link moves on, wraps to row 1 at 0 and finishes
        // there with nothing left to send: 0.5 + 1 + 0 s.
        #expect(link.transfer(950_000) == 1580)
        #expect(link.row == 1 && link.traceTime == 0)
        // 95,000 bytes from the wrap: 0.1 s of row 1.
        #expect(link.transfer(95_000) == 180)
        #expect(link.elapsed == 0.5 + 1.5 + 0.1)
        #expect(link.bytesSent == 475_000 + 950_000 + 95_000)
    }

    @Test func delaysRoundToTheNearestMillisecondHalfUp() {
        var link = MMGCLink(trace: Self.trace)
        // 475 bytes: 0.5 ms of transfer, 80.5 ms in all: rounds up.
        #expect(link.transferExact(475) == 80.5)
        var rounded = MMGCLink(trace: Self.trace)
        #expect(rounded.transfer(475) == 81)
        // 380 bytes: 0.4 ms: 80.4 rounds down.
        #expect(rounded.transfer(380) == 80)
    }

    @Test func traceTimeStandsStillWhileTheLinkIsIdle() throws {
        // A session that waits between two downloads gets the same delays as one that does not.
        let video = MMGCVideo(name: "a", sizes: [[475_000, 712_500], [475_000, 712_500], [475_000, 712_500]],
                              retentionRows: [1, 0.5, 0.5, 0])
        let user = MMGCUser(watchMs: [2000])
        var busy = MMGCSession(videos: [video], user: user, trace: Self.trace)
        var idle = busy
        #expect(busy.step(.download(video: 0, level: 0)).delayMs == 580)
        #expect(idle.step(.download(video: 0, level: 0)).delayMs == 580)
        _ = idle.step(.sleep(ms: 700))
        // Both send the second chunk from 0.5 s on the trace: the rest of row 1 (475,000 bytes),
        // then 237,500 bytes of row 2 in 0.5 s.
        #expect(busy.step(.download(video: 0, level: 0)).delayMs == 1080)
        #expect(idle.step(.download(video: 0, level: 0)).delayMs == 1080)
    }
}
