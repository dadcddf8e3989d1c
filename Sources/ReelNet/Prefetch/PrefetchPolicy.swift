import HeapModule
import ReelCore

/// The prefetch queue's rules as a pure state machine: events in (enqueue, cancel, reprioritise,
/// a job ended, playback starving or not), actions out (start a job, stop one, report what became
/// of a request). The `Prefetcher` actor performs the actions; tests drive this struct directly.
///
/// 1. Order: tier (the category's position), then failures (a request queued again after a
///    failure waits behind the fresh ones of its category), then rank, then arrival.
/// 2. Cap: at most `limits.cap` jobs are active, running or stopping (a stopping job still holds
///    its connection, so it counts until it has ended).
/// 3. Preemption: a running job is suspended only when a request of a strictly higher category
///    waits, the cap is full and no other job is already stopping (its slot is about to free);
///    the victim is the worst running job by rule 1. It goes back to the queue with its priority
///    and arrival; its bytes stay in the cache as partial entries that its next run resumes.
///    A new rank or a lower category never stops a running job by itself.
/// 4. Yielding: while playback starves and `limits.yieldsToPlayback`, the cap is
///    `limits.starvingCap` (0 pauses prefetch); the worst running jobs over it are suspended.
///    The gate (`setGate`) holds prefetch back for what plays: `urgentOnly` lets only the highest
///    category run (the cards about to play), `closed` nothing (a play waits for its first
///    frame); running jobs it shuts out are suspended like a starving player's.
/// 5. Reprioritise: a queued request moves (O(log n)); a running one keeps running, and its new
///    priority counts for rule 3.
/// 6. Cancel: a queued request is dropped at once (O(1), its heap entry left to lazy deletion);
///    a running one is stopped and reported cancelled once its job has ended.
/// 7. Failure: a retriable failure (the network) queues the request again, at most
///    `limits.retries` times; any other failure drops it.
///
/// Cancelled and moved requests leave stale heap entries (lazy deletion, checked by a generation
/// number); the heap is rebuilt when they outnumber the queued ones, so it never holds more
/// than twice the queue plus 64 entries.
public struct PrefetchPolicy: Sendable {
    public struct Limits: Sendable, Hashable {
        /// Jobs active at once at most.
        public var cap: Int
        /// The cap while playback starves (with `yieldsToPlayback`); 0 pauses prefetch.
        public var starvingCap: Int
        /// Whether a starving player lowers the cap to `starvingCap`.
        public var yieldsToPlayback: Bool
        /// Times a request that failed on the network is queued again.
        public var retries: Int

        public init(cap: Int = 2, starvingCap: Int = 0, yieldsToPlayback: Bool = true, retries: Int = 1) {
            self.cap = max(1, cap)
            self.starvingCap = max(0, starvingCap)
            self.yieldsToPlayback = yieldsToPlayback
            self.retries = max(0, retries)
        }

        /// The limits `prefetch.*` describes: `lowEndMaxConcurrent` on a low-end device
        /// (`device.isLowEnd`), else `maxConcurrent`; `starvingMaxConcurrent` within that.
        public init(_ config: ReelConfig) {
            let cap = config.device.isLowEnd ? config.prefetch.lowEndMaxConcurrent : config.prefetch.maxConcurrent
            self.init(cap: cap, starvingCap: min(cap, config.prefetch.starvingMaxConcurrent),
                      yieldsToPlayback: config.prefetch.pauseWhileStarving, retries: config.prefetch.retries)
        }
    }

    /// Why a running job is stopped.
    public enum StopReason: String, Sendable, Hashable, Codable {
        /// The caller cancelled the request: it is dropped once the job has ended.
        case cancelled
        /// A request of a higher category took the slot: back to the queue.
        case preempted
        /// A player is starving: back to the queue.
        case starving
        /// The gate shut the request's category out: back to the queue.
        case yielding
    }

    /// How a job ended, as the executor saw it.
    public enum JobEnd: Sendable, Hashable {
        case completed
        /// It noticed a stop and ended early.
        case stopped
        /// `retriable`: a network failure worth another try later.
        case failed(retriable: Bool)
    }

    /// What became of a request, for the executor to tell the world.
    public enum Report: Sendable, Hashable {
        case completed
        case cancelled
        /// Stopped and queued again; it resumes later.
        case suspended(StopReason)
        /// Failed and queued again (`attempt` failures so far).
        case retrying(attempt: Int)
        /// Failed and dropped.
        case failed
    }

    public enum Action: Sendable, Hashable {
        /// Run the request's job (or run it again after a suspension or a failure).
        case start(PrefetchRequestID)
        /// Stop the request's running job (signal its cancellation); `jobEnded` follows.
        case stop(PrefetchRequestID, StopReason)
        case report(PrefetchRequestID, Report)
    }

    /// Where a request is.
    public enum State: Sendable, Hashable {
        case queued
        case running
        case stopping(StopReason)
    }

    private struct Record: Sendable {
        var priority: PrefetchPriority
        let arrival: UInt64
        var failures = 0
        var state = State.queued
        /// Bumped whenever the request is pushed again; older heap entries are stale.
        var generation: UInt32 = 0
    }

    /// A heap entry: the order key of rule 1 and the generation it was pushed with.
    private struct Entry: Comparable, Sendable {
        var tier: Int
        var failures: Int
        var rank: Int
        var arrival: UInt64
        var id: PrefetchRequestID
        var generation: UInt32

        static func < (a: Entry, b: Entry) -> Bool {
            (a.tier, a.failures, a.rank, a.arrival) < (b.tier, b.failures, b.rank, b.arrival)
        }
    }

    public private(set) var limits: Limits
    /// A player is starving (as last told).
    public private(set) var isStarving = false
    /// What may run while something plays (as last told).
    public private(set) var gate = PrefetchGate.open
    private var records: [PrefetchRequestID: Record] = [:]
    private var heap = Heap<Entry>()
    private var active: Set<PrefetchRequestID> = []
    private var nextArrival: UInt64 = 0
    /// Requests in the `queued` state (each has exactly one live heap entry).
    public private(set) var queuedCount = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    // MARK: Events

    /// A new request; ignored when `id` is already known.
    public mutating func enqueue(_ id: PrefetchRequestID, priority: PrefetchPriority) -> [Action] {
        guard records[id] == nil else { return [] }
        nextArrival += 1
        records[id] = Record(priority: priority, arrival: nextArrival)
        push(id)
        var actions: [Action] = []
        schedule(&actions)
        return actions
    }

    /// Cancels a request wherever it is; unknown ids are ignored.
    public mutating func cancel(_ id: PrefetchRequestID) -> [Action] {
        guard let record = records[id] else { return [] }
        var actions: [Action] = []
        switch record.state {
        case .queued:
            // Nothing to schedule: no slot freed, and one waiting request fewer cannot call for a preemption.
            records[id] = nil
            queuedCount -= 1
            compactIfNeeded()
            return [.report(id, .cancelled)]
        case .running:
            records[id]?.state = .stopping(.cancelled)
            actions.append(.stop(id, .cancelled))
        case .stopping:
            records[id]?.state = .stopping(.cancelled)
        }
        schedule(&actions)
        return actions
    }

    /// Gives a request a new priority (rule 5); unknown ids are ignored.
    public mutating func reprioritize(_ id: PrefetchRequestID, to priority: PrefetchPriority) -> [Action] {
        guard let record = records[id], record.priority != priority else { return [] }
        records[id]?.priority = priority
        if record.state == .queued {
            records[id]?.generation &+= 1
            queuedCount -= 1
            push(id)
            compactIfNeeded()
        }
        var actions: [Action] = []
        schedule(&actions)
        return actions
    }

    /// The job of an active request ended.
    public mutating func jobEnded(_ id: PrefetchRequestID, _ end: JobEnd) -> [Action] {
        guard let record = records[id], active.remove(id) != nil else { return [] }
        var actions: [Action] = []
        switch (record.state, end) {
        case (.stopping(.cancelled), _), (.running, .stopped):
            records[id] = nil
            actions.append(.report(id, .cancelled))
        case (_, .completed):
            records[id] = nil
            actions.append(.report(id, .completed))
        case (.stopping(let reason), .stopped):
            records[id]?.generation &+= 1
            push(id)
            actions.append(.report(id, .suspended(reason)))
        case (_, .failed(let retriable)):
            if retriable && record.failures < limits.retries {
                records[id]?.failures += 1
                records[id]?.generation &+= 1
                push(id)
                actions.append(.report(id, .retrying(attempt: record.failures + 1)))
            } else {
                records[id] = nil
                actions.append(.report(id, .failed))
            }
        case (.queued, _):
            break  // not active; unreachable
        }
        schedule(&actions)
        return actions
    }

    /// A playing video's buffer fell under (true) or came back over (false) the watermark.
    public mutating func setStarving(_ starving: Bool) -> [Action] {
        guard starving != isStarving else { return [] }
        isStarving = starving
        var actions: [Action] = []
        schedule(&actions)
        return actions
    }

    /// What may run now: every category, the highest only, or nothing.
    public mutating func setGate(_ gate: PrefetchGate) -> [Action] {
        guard gate != self.gate else { return [] }
        self.gate = gate
        var actions: [Action] = []
        schedule(&actions)
        return actions
    }

    // MARK: Queries

    /// Where `id` is, or nil when it is not (or no longer) known.
    public func state(of id: PrefetchRequestID) -> State? { records[id]?.state }

    /// The priority `id` holds now.
    public func priority(of id: PrefetchRequestID) -> PrefetchPriority? { records[id]?.priority }

    /// Requests running or stopping.
    public var activeCount: Int { active.count }

    /// Nothing queued and nothing active.
    public var isIdle: Bool { records.isEmpty }

    /// Entries the heap holds, stale ones included (the memory bound: at most
    /// `2 * queuedCount + 64`).
    public var heapStorage: Int { heap.count }

    /// The cap in force now (rule 4).
    public var effectiveCap: Int {
        isStarving && limits.yieldsToPlayback ? min(limits.starvingCap, limits.cap) : limits.cap
    }

    /// The queued requests in the order they would start (O(n log n); for tests and displays).
    public var queuedInOrder: [PrefetchRequestID] {
        heap.unordered.filter(isLive).sorted().map(\.id)
    }

    // MARK: Scheduling

    private mutating func schedule(_ actions: inout [Action]) {
        let cap = effectiveCap
        // Rule 4: the cap shrank (a player starves): suspend the worst running jobs over it
        // (jobs already stopping are on their way out).
        var running = active.count { records[$0]?.state == .running }
        while running > cap, let victim = worstRunning() {
            running -= 1
            records[victim]?.state = .stopping(.starving)
            actions.append(.stop(victim, .starving))
        }
        // The gate: running jobs of the categories it shuts out go back to the queue.
        for id in active.sorted() {
            guard let record = records[id], record.state == .running, !gate.admits(tier: record.priority.tier) else { continue }
            records[id]?.state = .stopping(.yielding)
            actions.append(.stop(id, .yielding))
        }
        // Rule 2: fill the free slots, best first (the queue is in tier order: once the best is
        // shut out by the gate, so is everything behind it).
        while active.count < cap, let best = peekBest(), gate.admits(tier: best.tier), let entry = popBest() {
            records[entry.id]?.state = .running
            active.insert(entry.id)
            actions.append(.start(entry.id))
        }
        // Rule 3: a strictly higher category waits behind a full cap.
        guard cap > 0, active.count >= cap, !anyStopping, let best = peekBest(), gate.admits(tier: best.tier),
              let victim = worstRunning(), let held = records[victim], best.tier < held.priority.tier else { return }
        records[victim]?.state = .stopping(.preempted)
        actions.append(.stop(victim, .preempted))
    }

    private var anyStopping: Bool {
        active.contains { if case .stopping = records[$0]?.state { true } else { false } }
    }

    /// The running (not stopping) job that rule 1 puts last.
    private func worstRunning() -> PrefetchRequestID? {
        var worst: Entry?
        for id in active {
            guard let record = records[id], record.state == .running else { continue }
            let entry = self.entry(id, record)
            if worst.map({ $0 < entry }) ?? true { worst = entry }
        }
        return worst?.id
    }

    private func entry(_ id: PrefetchRequestID, _ record: Record) -> Entry {
        Entry(tier: record.priority.tier, failures: record.failures, rank: record.priority.rank, arrival: record.arrival,
              id: id, generation: record.generation)
    }

    private func isLive(_ entry: Entry) -> Bool {
        guard let record = records[entry.id] else { return false }
        return record.state == .queued && record.generation == entry.generation
    }

    /// Queues `id` (state queued) with a fresh heap entry.
    private mutating func push(_ id: PrefetchRequestID) {
        guard var record = records[id] else { return }
        record.state = .queued
        records[id] = record
        heap.insert(entry(id, record))
        queuedCount += 1
    }

    /// The best live entry, stale ones above it dropped.
    private mutating func peekBest() -> Entry? {
        while let top = heap.min {
            if isLive(top) { return top }
            heap.removeMin()
        }
        return nil
    }

    private mutating func popBest() -> Entry? {
        guard let best = peekBest() else { return nil }
        heap.removeMin()
        queuedCount -= 1
        return best
    }

    /// Rebuilds the heap from the live entries once stale ones outnumber them (amortised O(1)).
    private mutating func compactIfNeeded() {
        guard heap.count > 2 * queuedCount + 64 else { return }
        heap = Heap(heap.unordered.filter(isLive))
    }
}
