import ReelCore
import ReelNet
import Testing

/// The prefetch queue's rules, driven directly: order, cap, cancel, reprioritise, preemption,
/// yielding to a starving player, retries, and the heap's memory bound.
@Suite("Prefetch policy")
struct PrefetchPolicyTests {
    typealias ID = PrefetchRequestID

    static func id(_ value: UInt64) -> ID { ID(value) }

    static func priority(_ tier: Int, _ rank: Int = 0) -> PrefetchPriority { PrefetchPriority(tier: tier, rank: rank) }

    /// Completes the running jobs one by one (cap 1) and returns the ids in the order they started.
    static func drain(_ policy: inout PrefetchPolicy, first: [PrefetchPolicy.Action] = []) -> [ID] {
        var started: [ID] = first.compactMap { if case .start(let id) = $0 { id } else { nil } }
        var index = 0
        while index < started.count {
            let actions = policy.jobEnded(started[index], .completed)
            started += actions.compactMap { if case .start(let id) = $0 { id } else { nil } }
            index += 1
        }
        return started
    }

    @Test func requestsRunByCategoryThenRankThenArrival() {
        var policy = PrefetchPolicy(limits: .init(cap: 1))
        // Paused (a starving player), so every request queues, in a scrambled order.
        _ = policy.setStarving(true)
        let queued: [(UInt64, Int, Int)] = [(1, 3, 9), (2, 2, 5), (3, 0, 7), (4, 2, 1), (5, 0, 7), (6, 1, 0), (7, 0, 2), (8, 3, 0), (9, 2, 1)]
        for (id, tier, rank) in queued {
            #expect(policy.enqueue(Self.id(id), priority: Self.priority(tier, rank)).isEmpty)
        }
        #expect(policy.queuedInOrder == [7, 3, 5, 6, 4, 9, 2, 8, 1].map(Self.id))
        let first = policy.setStarving(false)
        #expect(first == [.start(Self.id(7))])
        #expect(Self.drain(&policy, first: first) == [7, 3, 5, 6, 4, 9, 2, 8, 1].map(Self.id))
        #expect(policy.isIdle)
    }

    @Test func theCapIsNeverExceededWhateverHappens() {
        var random = SeededRandom(seed: 7)
        for cap in 1...4 {
            var policy = PrefetchPolicy(limits: .init(cap: cap, starvingCap: cap / 2, retries: 1))
            var running: Set<ID> = []
            var next: UInt64 = 0
            for _ in 0..<5_000 {
                var actions: [PrefetchPolicy.Action] = []
                switch random.next() % 7 {
                case 0, 1:
                    next += 1
                    actions = policy.enqueue(Self.id(next), priority: Self.priority(Int(random.next() % 4), Int(random.next() % 5)))
                case 2:
                    actions = policy.cancel(Self.id(random.next() % (next + 1)))
                case 3:
                    actions = policy.reprioritize(Self.id(random.next() % (next + 1)),
                                                  to: Self.priority(Int(random.next() % 4), Int(random.next() % 5)))
                case 4, 5:
                    if let id = running.randomElement(using: &random) {
                        let ends: [PrefetchPolicy.JobEnd] = [.completed, .stopped, .failed(retriable: true), .failed(retriable: false)]
                        actions = policy.jobEnded(id, ends[Int(random.next() % 4)])
                        running.remove(id)
                    }
                default:
                    actions = policy.setStarving(random.next() % 2 == 0)
                }
                for action in actions {
                    if case .start(let id) = action {
                        #expect(!running.contains(id), "\(id) started twice")
                        running.insert(id)
                    }
                }
                #expect(running.count == policy.activeCount)
                #expect(policy.activeCount <= cap, "cap \(cap) exceeded: \(policy.activeCount)")
                #expect(policy.heapStorage <= 2 * policy.queuedCount + 64)
            }
        }
    }

    @Test func aQueuedCancelDropsTheRequestAndARunningOneStopsThenReportsCancelled() {
        var policy = PrefetchPolicy(limits: .init(cap: 1))
        #expect(policy.enqueue(Self.id(1), priority: Self.priority(0)) == [.start(Self.id(1))])
        #expect(policy.enqueue(Self.id(2), priority: Self.priority(0)).isEmpty)
        #expect(policy.enqueue(Self.id(3), priority: Self.priority(0)).isEmpty)
        #expect(policy.cancel(Self.id(2)) == [.report(Self.id(2), .cancelled)])
        #expect(policy.state(of: Self.id(2)) == nil)
        #expect(policy.cancel(Self.id(1)) == [.stop(Self.id(1), .cancelled)])
        #expect(policy.state(of: Self.id(1)) == .stopping(.cancelled))
        // The slot is held until the stopped job has ended.
        #expect(policy.activeCount == 1)
        #expect(policy.jobEnded(Self.id(1), .stopped) == [.report(Self.id(1), .cancelled), .start(Self.id(3))])
        #expect(policy.cancel(Self.id(42)).isEmpty)
    }

    @Test func aQueuedRequestMovesWhenReprioritisedAndARunningOneKeepsRunning() {
        var policy = PrefetchPolicy(limits: .init(cap: 1))
        _ = policy.enqueue(Self.id(1), priority: Self.priority(0))
        _ = policy.enqueue(Self.id(2), priority: Self.priority(2, 0))
        _ = policy.enqueue(Self.id(3), priority: Self.priority(2, 1))
        _ = policy.enqueue(Self.id(4), priority: Self.priority(1, 0))
        #expect(policy.queuedInOrder == [4, 2, 3].map(Self.id))
        #expect(policy.reprioritize(Self.id(3), to: Self.priority(0, 5)).isEmpty)
        #expect(policy.queuedInOrder == [3, 4, 2].map(Self.id))
        // Moved to the lowest category, the running request is outranked by a waiting one of a
        // strictly higher category (3, tier 0): it is suspended.
        #expect(policy.reprioritize(Self.id(1), to: Self.priority(3)) == [.stop(Self.id(1), .preempted)])
        var calm = PrefetchPolicy(limits: .init(cap: 1))
        _ = calm.enqueue(Self.id(1), priority: Self.priority(1, 0))
        _ = calm.enqueue(Self.id(2), priority: Self.priority(1, 3))
        // Same category, a worse rank for the running one: it keeps running.
        #expect(calm.reprioritize(Self.id(1), to: Self.priority(1, 9)).isEmpty)
        #expect(calm.state(of: Self.id(1)) == .running)
    }

    @Test func aHigherCategorySuspendsTheWorstRunningJobWhichResumesLater() {
        var policy = PrefetchPolicy(limits: .init(cap: 2))
        _ = policy.enqueue(Self.id(1), priority: Self.priority(1, 0))  // nearby
        _ = policy.enqueue(Self.id(2), priority: Self.priority(3, 0))  // background
        // Same or lower category waits.
        #expect(policy.enqueue(Self.id(3), priority: Self.priority(3, 0)).isEmpty)
        // A strictly higher category stops the worst running job: the background one.
        #expect(policy.enqueue(Self.id(4), priority: Self.priority(0, 0)) == [.stop(Self.id(2), .preempted)])
        // While that stop is under way no second job is stopped.
        #expect(policy.enqueue(Self.id(5), priority: Self.priority(0, 1)).isEmpty)
        #expect(policy.jobEnded(Self.id(2), .stopped) == [
            .report(Self.id(2), .suspended(.preempted)), .start(Self.id(4)), .stop(Self.id(1), .preempted),
        ])
        #expect(policy.jobEnded(Self.id(1), .stopped) == [.report(Self.id(1), .suspended(.preempted)), .start(Self.id(5))])
        // The suspended ones come back in their old order: 1 (nearby), then 2 (background, arrived before 3).
        #expect(policy.queuedInOrder == [1, 2, 3].map(Self.id))
        #expect(policy.jobEnded(Self.id(4), .completed) == [.report(Self.id(4), .completed), .start(Self.id(1))])
    }

    @Test func aJobThatCompletesWhileBeingStoppedIsCompletedAndACancelDuringAStopWins() {
        var policy = PrefetchPolicy(limits: .init(cap: 1))
        _ = policy.enqueue(Self.id(1), priority: Self.priority(3))
        #expect(policy.enqueue(Self.id(2), priority: Self.priority(0)) == [.stop(Self.id(1), .preempted)])
        #expect(policy.jobEnded(Self.id(1), .completed) == [.report(Self.id(1), .completed), .start(Self.id(2))])
        _ = policy.enqueue(Self.id(3), priority: Self.priority(0))
        _ = policy.enqueue(Self.id(4), priority: Self.priority(3))
        #expect(policy.setStarving(true) == [.stop(Self.id(2), .starving)])
        #expect(policy.cancel(Self.id(2)).isEmpty)
        #expect(policy.jobEnded(Self.id(2), .stopped) == [.report(Self.id(2), .cancelled)])
    }

    @Test func aStarvingPlayerPausesPrefetchAndItsEndResumesIt() {
        var policy = PrefetchPolicy(limits: .init(cap: 2, starvingCap: 0))
        _ = policy.enqueue(Self.id(1), priority: Self.priority(0))
        _ = policy.enqueue(Self.id(2), priority: Self.priority(1))
        _ = policy.enqueue(Self.id(3), priority: Self.priority(2))
        #expect(policy.setStarving(true) == [.stop(Self.id(2), .starving), .stop(Self.id(1), .starving)])
        #expect(policy.setStarving(true).isEmpty)
        #expect(policy.jobEnded(Self.id(2), .stopped) == [.report(Self.id(2), .suspended(.starving))])
        #expect(policy.jobEnded(Self.id(1), .stopped) == [.report(Self.id(1), .suspended(.starving))])
        #expect(policy.enqueue(Self.id(4), priority: Self.priority(0)).isEmpty)
        #expect(policy.activeCount == 0)
        #expect(policy.setStarving(false) == [.start(Self.id(1)), .start(Self.id(4))])
    }

    @Test func aStarvingPlayerThrottlesToTheStarvingCap() {
        var policy = PrefetchPolicy(limits: .init(cap: 3, starvingCap: 1))
        for id in 1...4 { _ = policy.enqueue(Self.id(UInt64(id)), priority: Self.priority(id)) }
        #expect(policy.setStarving(true) == [.stop(Self.id(3), .starving), .stop(Self.id(2), .starving)])
        _ = policy.jobEnded(Self.id(3), .stopped)
        _ = policy.jobEnded(Self.id(2), .stopped)
        #expect(policy.activeCount == 1 && policy.state(of: Self.id(1)) == .running)
        #expect(policy.jobEnded(Self.id(1), .completed) == [.report(Self.id(1), .completed), .start(Self.id(2))])
        var ignoring = PrefetchPolicy(limits: .init(cap: 2, yieldsToPlayback: false))
        _ = ignoring.enqueue(Self.id(1), priority: Self.priority(0))
        #expect(ignoring.setStarving(true).isEmpty)
        #expect(ignoring.enqueue(Self.id(2), priority: Self.priority(0)) == [.start(Self.id(2))])
    }

    @Test func aNetworkFailureIsRetriedBehindItsCategoryThenDropped() {
        var policy = PrefetchPolicy(limits: .init(cap: 1, retries: 1))
        _ = policy.enqueue(Self.id(1), priority: Self.priority(1, 0))
        _ = policy.enqueue(Self.id(2), priority: Self.priority(1, 5))
        _ = policy.enqueue(Self.id(3), priority: Self.priority(2, 0))
        // Queued again behind the fresh request of its category, ahead of a lower category.
        #expect(policy.jobEnded(Self.id(1), .failed(retriable: true)) == [.report(Self.id(1), .retrying(attempt: 1)), .start(Self.id(2))])
        #expect(policy.queuedInOrder == [1, 3].map(Self.id))
        #expect(policy.jobEnded(Self.id(2), .failed(retriable: false)) == [.report(Self.id(2), .failed), .start(Self.id(1))])
        #expect(policy.jobEnded(Self.id(1), .failed(retriable: true)) == [.report(Self.id(1), .failed), .start(Self.id(3))])
    }

    @Test func cancelledAndMovedEntriesNeverGrowTheHeapPastItsBound() {
        var policy = PrefetchPolicy(limits: .init(cap: 1))
        for id in 1...10_000 { _ = policy.enqueue(Self.id(UInt64(id)), priority: Self.priority(id % 4, id % 97)) }
        var peak = 0
        for round in 0..<5 {
            for id in 2...10_000 {
                _ = policy.reprioritize(Self.id(UInt64(id)), to: Self.priority((id + round) % 4, (id * 31 + round) % 101))
                peak = max(peak, policy.heapStorage)
            }
        }
        for id in stride(from: 2, through: 10_000, by: 2) {
            _ = policy.cancel(Self.id(UInt64(id)))
            peak = max(peak, policy.heapStorage)
        }
        #expect(policy.queuedCount == 4_999)
        #expect(peak <= 2 * 9_999 + 64, "the heap held \(peak) entries")
        #expect(policy.heapStorage <= 2 * policy.queuedCount + 64)
        // The order survived the compactions.
        var survivors: [(priority: PrefetchPriority, id: Int)] = []
        for id in stride(from: 3, through: 9_999, by: 2) {
            survivors.append((Self.priority((id + 4) % 4, (id * 31 + 4) % 101), id))
        }
        survivors.sort { a, b in a.priority != b.priority ? a.priority < b.priority : a.id < b.id }
        let expected = survivors.map { Self.id(UInt64($0.id)) }
        #expect(policy.queuedInOrder == expected)
    }

    @Test func theLimitsComeFromTheConfigurationAndLowEndDevicesHaveTheirOwn() {
        var config = ReelConfig()
        config.prefetch.maxConcurrent = 3
        config.prefetch.lowEndMaxConcurrent = 1
        config.prefetch.starvingMaxConcurrent = 5
        config.prefetch.retries = 2
        #expect(PrefetchPolicy.Limits(config) == .init(cap: 3, starvingCap: 3, yieldsToPlayback: true, retries: 2))
        config.device.isLowEnd = true
        config.prefetch.pauseWhileStarving = false
        #expect(PrefetchPolicy.Limits(config) == .init(cap: 1, starvingCap: 1, yieldsToPlayback: false, retries: 2))
        config.prefetch.lowEndSegments = 1
        config.prefetch.segments.imminent = 4
        #expect(PrefetchCategory.imminent.segments(config) == 1)
        config.device.isLowEnd = false
        #expect(PrefetchCategory.imminent.segments(config) == 4)
        config.prefetch.categories = ["page", "imminent"]
        #expect(PrefetchCategory.order(config) == [.page, .imminent])
    }
}
