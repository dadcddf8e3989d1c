import ReelCore
import ReelNet
import Testing

/// Yielding to what plays: what `PrefetchPolicy` does with the gate (the `PlaybackYield` policy
/// chooses it: ReelFeedTests), and the amounts in milliseconds.
@Suite("Prefetch gate and amounts")
struct PrefetchGateTests {
    typealias ID = PrefetchRequestID

    static func started(_ actions: [PrefetchPolicy.Action]) -> [ID] {
        actions.compactMap { if case .start(let id) = $0 { id } else { nil } }
    }

    static func stopped(_ actions: [PrefetchPolicy.Action]) -> [ID: PrefetchPolicy.StopReason] {
        var out: [ID: PrefetchPolicy.StopReason] = [:]
        for action in actions { if case .stop(let id, let reason) = action { out[id] = reason } }
        return out
    }

    @Test("the gate suspends what it shuts out and lets it run again when it opens")
    func gateSuspendsAndResumes() {
        var policy = PrefetchPolicy(limits: .init(cap: 2))
        let a = ID(1), b = ID(2), c = ID(3)
        #expect(Self.started(policy.enqueue(a, priority: .init(tier: 0, rank: 0))) == [a])
        #expect(Self.started(policy.enqueue(b, priority: .init(tier: 1, rank: 0))) == [b])
        _ = policy.enqueue(c, priority: .init(tier: 2, rank: 0))
        // Only the urgent tier: the running tier-1 job is stopped, nothing else starts.
        let urgent = policy.setGate(.urgentOnly)
        #expect(Self.stopped(urgent) == [b: .yielding])
        #expect(Self.started(urgent).isEmpty)
        #expect(policy.jobEnded(b, .stopped).contains(.report(b, .suspended(.yielding))))
        #expect(policy.state(of: b) == .queued && policy.state(of: c) == .queued)
        // Closed: the urgent one stops too.
        #expect(Self.stopped(policy.setGate(.closed)) == [a: .yielding])
        _ = policy.jobEnded(a, .stopped)
        #expect(policy.activeCount == 0)
        // A new urgent request waits while closed, then everything runs again in order.
        let d = ID(4)
        #expect(Self.started(policy.enqueue(d, priority: .init(tier: 0, rank: 1))).isEmpty)
        #expect(Self.started(policy.setGate(.urgentOnly)) == [a, d])
        #expect(Self.started(policy.jobEnded(a, .completed)).isEmpty, "tier 1 waits for the gate")
        #expect(Self.started(policy.setGate(.open)) == [b])
    }

    @Test("milliseconds of media become the segments covering them")
    func amounts() {
        let durations = [2.0, 2.0, 2.0]
        #expect(PrefetchAmount.media(ms: 1).segmentCount(durations: durations) == 1)
        #expect(PrefetchAmount.media(ms: 2000).segmentCount(durations: durations) == 1)
        #expect(PrefetchAmount.media(ms: 2001).segmentCount(durations: durations) == 2)
        #expect(PrefetchAmount.media(ms: 60_000).segmentCount(durations: durations) == 3)
        #expect(PrefetchAmount.media(ms: 0).segmentCount(durations: durations) == 0)
        #expect(PrefetchAmount.segments(2).segmentCount(durations: durations) == 2)
        #expect(PrefetchAmount.segments(-1).segmentCount(durations: []) == 0)
        #expect(PrefetchAmount.media(ms: 500).segmentCount(durations: [0.1, 0.1, 0.4, 1]) == 3)
    }
}
