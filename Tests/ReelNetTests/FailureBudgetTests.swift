import ReelCore
import ReelNet
import Testing

/// The failure budget of a play, on plain times: failures in a row are counted and timed from
/// the start of the first failed request; media bytes end the run.
@Suite("FailureBudget")
struct FailureBudgetTests {
    static let stall = ReelError(.timeout, "'s.ts' stalled")
    static let missing = ReelError(.notFound, "HTTP 404 for 's.ts'")

    static func gaveUp(_ verdict: FailureBudget.Verdict) -> ReelError? {
        if case .giveUp(let error) = verdict { return error }
        return nil
    }

    @Test func missingSegmentsInARowEndThePlayAtTheCount() {
        var budget = FailureBudget(maxConsecutiveFailures: 3, timeBudget: .seconds(8))
        #expect(Self.gaveUp(budget.failed(Self.missing, started: .milliseconds(100), now: .milliseconds(110))) == nil)
        #expect(Self.gaveUp(budget.failed(Self.missing, started: .milliseconds(120), now: .milliseconds(130))) == nil)
        let error = Self.gaveUp(budget.failed(Self.missing, started: .milliseconds(140), now: .milliseconds(150)))
        #expect(error?.message.hasPrefix("gave up after 3 failed fetches in a row") == true, "\(String(describing: error))")
        #expect(error?.message.contains("HTTP 404") == true)
        #expect(budget.deadline == nil)
    }

    @Test func stallsEndThePlayOnceTheTimeBudgetPassesCountedFromTheFirstRequest() {
        // One stalled segment and its retry: 4 s + 0.1 s backoff + 4 s, within 2 x (4 + 0.1).
        var budget = FailureBudget(maxConsecutiveFailures: 3, timeBudget: .milliseconds(8200))
        #expect(Self.gaveUp(budget.failed(Self.stall, started: .zero, now: .milliseconds(8100))) == nil)
        #expect(budget.deadline == .milliseconds(8200))
        // The next segment stalls too: the deadline ends it without waiting for its own timeout.
        #expect(Self.gaveUp(budget.deadlinePassed(now: .milliseconds(8150))) == nil)
        let error = Self.gaveUp(budget.deadlinePassed(now: .milliseconds(8200)))
        #expect(error?.code == .timeout && error?.message.contains("over 8.2 s") == true, "\(String(describing: error))")
    }

    @Test func mediaBytesEndTheRunAndCancelsDoNotCount() {
        var budget = FailureBudget(maxConsecutiveFailures: 2, timeBudget: .seconds(8))
        _ = budget.failed(Self.missing, started: .seconds(1), now: .seconds(1))
        budget.progressed()
        #expect(budget.failures.isEmpty && budget.deadline == nil)
        #expect(Self.gaveUp(budget.failed(ReelError(.cancelled, "stopped"), started: .seconds(2), now: .seconds(2))) == nil)
        #expect(Self.gaveUp(budget.failed(Self.missing, started: .seconds(30), now: .seconds(30))) == nil)
        // A failure long after the last one of an earlier run is timed from its own start.
        #expect(budget.deadline == .seconds(38))
        #expect(Self.gaveUp(budget.failed(Self.missing, started: .seconds(31), now: .seconds(31))) != nil)
        // Once given up, it stays given up.
        budget.progressed()
        #expect(Self.gaveUp(budget.failed(Self.missing, started: .seconds(40), now: .seconds(40))) != nil)
    }

    @Test func theBudgetFromNetworkOptionsIsTwoStallsAndABackoff() {
        var options = NetworkOptions()
        options.lowSpeedTimeMs = 4000
        options.retryBackoffMs = 100
        options.maxConsecutiveFailures = 5
        let budget = FailureBudget(options)
        #expect(budget.timeBudget == .milliseconds(8200) && budget.maxConsecutiveFailures == 5)
    }
}
