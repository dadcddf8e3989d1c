import Foundation
import ReelCore
import ReelNet

/// At most `capacity` FFmpeg decoders, each on a thread of its own, lent to the cards that need
/// them: `acquire` serves a request by reuse, creation, reconfiguration, eviction or preemption
/// (see `DecoderPoolPolicy`), or makes it wait; `release` takes a decoder back flushed.
/// Preemption follows `DecoderPriority`: only strictly lower holders, never a playing one, the
/// lowest first. Waiting requests are served by priority, then in order of arrival.
public actor DecoderPool {
    public nonisolated let capacity: Int
    /// FFmpeg threads per decoder.
    public nonisolated let threads: Int
    private let policy: DecoderPoolPolicy
    private var slots: [Slot] = []
    private var waiters: [Waiter] = []
    private var counters = DecoderPoolStatistics()
    /// Acquire latency: every grant, and grants of a matching idle decoder.
    private var latency = Distribution()
    private var idleMatchLatency = Distribution()
    private var tick: UInt64 = 0
    private var nextDecoderID = 0
    private var nextWaiterID = 0
    private var nextSubscriberID = 0
    private var subscribers: [Int: AsyncStream<DecoderPoolEvent>.Continuation] = [:]

    private struct Slot {
        let decoder: PooledDecoder
        var format: StreamFormat?
        var holder: DecoderTicket?
        /// Being opened, flushed or handed over.
        var busy: Bool
        var lastUsed: UInt64
    }

    private struct Waiter {
        let id: Int
        let ticket: DecoderTicket
        let stream: StreamParameters
        let started: ContinuousClock.Instant
        let continuation: CheckedContinuation<PooledDecoder, any Error>
    }

    /// A pool of `capacity` decoders of `threads` FFmpeg threads each.
    public init(capacity: Int, threads: Int = 1) {
        self.capacity = max(1, capacity)
        self.threads = threads
        self.policy = DecoderPoolPolicy(capacity: self.capacity)
        counters.capacity = self.capacity
    }

    /// The pool the configuration describes: `decoder.poolSize` decoders, `decoder.lowEndPoolSize`
    /// on a low-end device (`device.isLowEnd`), `decoder.threads` threads each.
    public init(config: ReelConfig) {
        self.init(capacity: config.device.isLowEnd ? config.decoder.lowEndPoolSize : config.decoder.poolSize,
                  threads: config.decoder.threads)
    }

    /// Lends `ticket` a decoder ready for `stream`: flushed, or freshly opened for its format.
    /// Waits while every decoder is busy and no holder may be preempted for `ticket.priority`
    /// (a priority raised while waiting counts once `reschedule()` runs). A cancelled wait throws
    /// `.cancelled`.
    public func acquire(_ ticket: DecoderTicket, for stream: StreamParameters) async throws -> PooledDecoder {
        let started = ContinuousClock.now
        if slots.contains(where: { $0.holder === ticket }) || waiters.contains(where: { $0.ticket === ticket }) {
            throw ReelError(.internalFailure, "card \(ticket) asked for a second decoder")
        }
        while true {
            if Task.isCancelled { throw cancelled(ticket) }
            let placement = policy.place(stream.format, priority: ticket.priority, among: candidates)
            if placement == .wait { break }
            if let decoder = try await perform(placement, for: ticket, stream: stream, started: started, waited: false) {
                return decoder
            }
        }
        counters.waits += 1
        emit(.waiting(card: ticket.card))
        nextWaiterID += 1
        let id = nextWaiterID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PooledDecoder, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: cancelled(ticket))
                    return
                }
                waiters.append(Waiter(id: id, ticket: ticket, stream: stream, started: started, continuation: continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// Takes back the decoder `ticket` holds, flushed, and serves the waiting requests. Nothing
    /// happens when the ticket holds none (never granted, or preempted).
    public func release(_ ticket: DecoderTicket) async {
        ticket.clear()
        guard let index = slots.firstIndex(where: { $0.holder === ticket }) else { return }
        let decoder = slots[index].decoder
        decoder.setHolder(nil)
        slots[index].holder = nil
        slots[index].busy = true
        counters.releases += 1
        emit(.released(card: ticket.card, decoder: decoder.id))
        // Runs on the decoder's thread after every job the holder queued there.
        await decoder.flush()
        if let index = slotIndex(decoder) {
            slots[index].busy = false
            slots[index].lastUsed = nextTick()
        }
        await schedule()
    }

    /// Re-ranks waiting requests and holders after priorities changed (a player paused, a
    /// waiting card was asked to play): a waiting request may now preempt.
    public func reschedule() async {
        await schedule()
    }

    /// Counters, invariants and acquire latency so far.
    public var statistics: DecoderPoolStatistics {
        var snapshot = counters
        snapshot.live = slots.count
        snapshot.held = slots.filter { $0.holder != nil }.count
        snapshot.waiting = waiters.count
        snapshot.breaches += slots.reduce(0) { $0 + $1.decoder.breachCount }
        snapshot.acquireMs = latency.percentiles
        snapshot.idleMatchAcquireMs = idleMatchLatency.percentiles
        return snapshot
    }

    /// Every event from now on, in order, until the stream is dropped.
    public func subscribe() -> AsyncStream<DecoderPoolEvent> {
        let (stream, continuation) = AsyncStream<DecoderPoolEvent>.makeStream()
        nextSubscriberID += 1
        let id = nextSubscriberID
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    // MARK: - Placing requests

    private var candidates: [DecoderPoolPolicy.Candidate] {
        slots.map { slot in
            let state: DecoderPoolPolicy.Candidate.State =
                slot.busy ? .busy : slot.holder.map { .held($0.priority) } ?? .idle
            return DecoderPoolPolicy.Candidate(id: slot.decoder.id, format: slot.format, state: state, lastUsed: slot.lastUsed)
        }
    }

    /// Carries out a placement for `ticket`; nil when it no longer applies (the holder to preempt
    /// began playing meanwhile) and the caller decides again.
    /// `waited`: the request waited first (its latency then does not count as a matching idle one).
    private func perform(_ placement: DecoderPlacement, for ticket: DecoderTicket, stream: StreamParameters,
                         started: ContinuousClock.Instant, waited: Bool) async throws -> PooledDecoder? {
        switch placement {
        case .wait:
            return nil
        case .reuse(let id):
            guard let index = slotIndex(id) else { return nil }
            counters.reused += 1
            let decoder = grant(index, to: ticket, format: stream.format, started: started)
            if !waited { idleMatchLatency.record((ContinuousClock.now - started).milliseconds) }
            emit(.granted(card: ticket.card, decoder: decoder.id, .reused))
            return decoder
        case .create:
            return try await create(for: ticket, stream: stream, started: started)
        case .reconfigure(let id):
            guard let index = slotIndex(id) else { return nil }
            slots[index].holder = ticket
            slots[index].busy = true
            return try await reopen(slots[index].decoder, for: ticket, stream: stream, started: started)
        case .evict(let id):
            guard let index = slotIndex(id) else { return nil }
            slots.remove(at: index)
            counters.evicted += 1
            emit(.evicted(decoder: id))
            return try await create(for: ticket, stream: stream, started: started)
        case .preempt(let id):
            guard let index = slotIndex(id), let victim = slots[index].holder,
                  victim.revoke(for: ticket.priority) else { return nil }
            let decoder = slots[index].decoder
            counters.preemptions += 1
            emit(.preempted(card: victim.card, decoder: id, by: ticket.card))
            decoder.setHolder(nil)
            slots[index].holder = ticket
            slots[index].busy = true
            let previous = slots[index].format
            if let previous, previous.sharesDecoder(with: stream.format) {
                // Runs after the preempted holder's last job on the decoder's thread.
                await decoder.flush()
                guard let index = slotIndex(decoder) else { return nil }
                counters.reused += 1
                let granted = grant(index, to: ticket, format: stream.format, started: started)
                emit(.granted(card: ticket.card, decoder: id, .reused))
                return granted
            }
            if let previous, !previous.sameKind(as: stream.format) {
                await decoder.flush()
                if let index = slotIndex(decoder) { slots.remove(at: index) }
                counters.evicted += 1
                emit(.evicted(decoder: id))
                return try await create(for: ticket, stream: stream, started: started)
            }
            return try await reopen(decoder, for: ticket, stream: stream, started: started)
        }
    }

    private func create(for ticket: DecoderTicket, stream: StreamParameters, started: ContinuousClock.Instant) async throws -> PooledDecoder {
        nextDecoderID += 1
        let decoder = PooledDecoder(id: nextDecoderID, threads: threads)
        slots.append(Slot(decoder: decoder, format: nil, holder: ticket, busy: true, lastUsed: nextTick()))
        counters.maxLive = max(counters.maxLive, slots.count)
        return try await open(decoder, for: ticket, stream: stream, started: started, as: .created)
    }

    /// Reopens a decoder reserved for `ticket` with `stream`'s parameters (new extradata).
    private func reopen(_ decoder: PooledDecoder, for ticket: DecoderTicket, stream: StreamParameters,
                        started: ContinuousClock.Instant) async throws -> PooledDecoder {
        try await open(decoder, for: ticket, stream: stream, started: started, as: .reconfigured)
    }

    /// Opens a codec context for `stream` on a decoder reserved for `ticket`, then grants it. A new
    /// decoder that fails to open is dropped; a reconfigured one goes back idle, formatless.
    private func open(_ decoder: PooledDecoder, for ticket: DecoderTicket, stream: StreamParameters,
                      started: ContinuousClock.Instant, as kind: DecoderPoolEvent.Grant) async throws -> PooledDecoder {
        do {
            try await decoder.open(stream)
        } catch {
            if let index = slotIndex(decoder) {
                if kind == .created {
                    slots.remove(at: index)
                } else {
                    slots[index].holder = nil
                    slots[index].busy = false
                    slots[index].format = nil
                }
            }
            counters.failures += 1
            await schedule()
            throw error
        }
        guard let index = slotIndex(decoder) else { throw cancelled(ticket) }
        if kind == .created { counters.created += 1 } else { counters.reconfigured += 1 }
        let granted = grant(index, to: ticket, format: stream.format, started: started)
        emit(.granted(card: ticket.card, decoder: decoder.id, kind))
        return granted
    }

    /// Hands slot `index` (reserved for `ticket`, or idle) to `ticket`.
    private func grant(_ index: Int, to ticket: DecoderTicket, format: StreamFormat, started: ContinuousClock.Instant) -> PooledDecoder {
        if let holder = slots[index].holder, holder !== ticket { counters.breaches += 1 }
        let decoder = slots[index].decoder
        slots[index].holder = ticket
        slots[index].busy = false
        slots[index].format = format
        slots[index].lastUsed = nextTick()
        decoder.setHolder(ticket)
        ticket.grant(decoder)
        latency.record((ContinuousClock.now - started).milliseconds)
        return decoder
    }

    /// Serves waiting requests while any can be placed: the highest priority first; within it, a
    /// request a free decoder of its own format can serve, then the earliest.
    private func schedule() async {
        while true {
            let placed = waiters.compactMap { waiter -> (Waiter, DecoderPlacement)? in
                let placement = policy.place(waiter.stream.format, priority: waiter.ticket.priority, among: candidates)
                return placement == .wait ? nil : (waiter, placement)
            }
            guard let top = placed.map({ $0.0.ticket.priority }).max() else { return }
            let first = placed.filter { $0.0.ticket.priority == top }
            let (waiter, placement) = first.first { if case .reuse = $0.1 { true } else { false } } ?? first[0]
            waiters.removeAll { $0.id == waiter.id }
            do {
                if let decoder = try await perform(placement, for: waiter.ticket, stream: waiter.stream,
                                                   started: waiter.started, waited: true) {
                    waiter.continuation.resume(returning: decoder)
                } else {
                    waiters.append(waiter)
                    waiters.sort { $0.id < $1.id }
                }
            } catch {
                waiter.continuation.resume(throwing: error)
            }
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        counters.failures += 1
        waiter.continuation.resume(throwing: cancelled(waiter.ticket))
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    private func emit(_ event: DecoderPoolEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    private func slotIndex(_ id: Int) -> Int? { slots.firstIndex { $0.decoder.id == id } }
    private func slotIndex(_ decoder: PooledDecoder) -> Int? { slots.firstIndex { $0.decoder === decoder } }

    private func nextTick() -> UInt64 {
        tick += 1
        return tick
    }

    private nonisolated func cancelled(_ ticket: DecoderTicket) -> ReelError {
        ReelError(.cancelled, "waiting for a decoder for card \(ticket.card) cancelled")
    }
}
