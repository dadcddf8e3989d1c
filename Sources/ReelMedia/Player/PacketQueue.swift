import Foundation
import ReelCore

/// The bounded queue between a player's demuxer and its decoder: video packets in decode order
/// and the media time they span, which `BufferPolicy` weighs. Both sides block on it; `wake()`
/// makes a blocked side look at its player's control state again, and `close()` ends both.
// @unchecked Sendable: every field is guarded by `condition`; a packet belongs to the demuxer
// until `push` and to the decoder after `pop`.
final class PacketQueue: @unchecked Sendable {
    enum Popped {
        case packet(Packet)
        /// Nothing queued yet and the input goes on.
        case empty
        case ended
        case failed(ReelError)
        /// Closed (the player stopped) or woken to look at its control state.
        case interrupted
    }

    private struct Entry {
        let packet: Packet
        /// Presentation time in seconds, when known.
        let pts: Double?
    }

    private let condition = NSCondition()
    private var entries: [Entry] = []
    private var head = 0
    private var ended = false
    private var closed = false
    private var failure: ReelError?
    private var reading = true
    /// The player has not played yet: the demuxer reads to the policy's prepared watermark.
    private var prepared: Bool
    private let frameInterval: Duration

    init(frameInterval: Duration, prepared: Bool = false) {
        self.frameInterval = frameInterval
        self.prepared = prepared
    }

    /// The player plays: the demuxer may read to the full watermark from now on.
    func endPrepared() {
        condition.lock()
        if prepared {
            prepared = false
            condition.broadcast()
        }
        condition.unlock()
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.count - head
    }

    /// Media time the queued packets span (plus one frame), zero when empty.
    var span: Duration {
        condition.lock()
        defer { condition.unlock() }
        return lockedSpan
    }

    private var lockedSpan: Duration {
        guard head < entries.count else { return .zero }
        var low = Double.infinity, high = -Double.infinity
        for entry in entries[head...] {
            guard let pts = entry.pts else { continue }
            low = min(low, pts)
            high = max(high, pts)
        }
        guard high >= low else { return frameInterval * (entries.count - head) }
        return .seconds(high - low) + frameInterval
    }

    // MARK: Demuxer side

    /// Blocks while `policy` says the buffer is full (`extra` adds what waits beyond the queue,
    /// in the renderer); `onRest` hears the buffered time once each time reading stops. Returns
    /// false once the queue is closed.
    func waitForRoom(policy: BufferPolicy, extra: () -> Duration, onRest: (Duration) -> Void) -> Bool {
        condition.lock()
        var announced = false
        while !closed {
            let buffered = lockedSpan + extra()
            let packets = entries.count - head
            if policy.shouldRead(buffered: buffered, packets: packets, wasReading: reading, prepared: prepared) {
                reading = true
                condition.unlock()
                return true
            }
            reading = false
            if !announced {
                announced = true
                condition.unlock()
                onRest(buffered)
                condition.lock()
                continue
            }
            condition.wait()
        }
        condition.unlock()
        return false
    }

    func push(_ packet: Packet, pts: Double?) {
        condition.lock()
        entries.append(Entry(packet: packet, pts: pts))
        condition.broadcast()
        condition.unlock()
    }

    /// The input has no more packets.
    func finish() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The demuxer failed; the decoder gets `error` once the queued packets are gone.
    func fail(_ error: ReelError) {
        condition.lock()
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Decoder side

    /// The next packet. When nothing is queued and `wait` is false, returns `.empty` at once;
    /// otherwise blocks until a packet, the end, a failure, `close()`, or a `wake()` after
    /// `epoch` (read it before looking at the control state, so no wake-up is lost), or, with a
    /// `deadline`, until then (`.empty`: the renderer has run out meanwhile).
    func pop(wait: Bool, since epoch: Int, deadline: ContinuousClock.Instant? = nil) -> Popped {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if closed { return .interrupted }
            if head < entries.count {
                let entry = entries[head]
                head += 1
                if head > 64 && head * 2 > entries.count {
                    entries.removeFirst(head)
                    head = 0
                }
                condition.broadcast()
                return .packet(entry.packet)
            }
            if let failure { return .failed(failure) }
            if ended { return .ended }
            if !wait { return .empty }
            if wakeEpoch != epoch { return .interrupted }
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero { return .empty }
                _ = condition.wait(until: Date(timeIntervalSinceNow: left.seconds))
            } else {
                condition.wait()
            }
        }
    }

    /// Blocks until `policy` lets a player that ran dry go on, or until `close()` or a `wake()`
    /// after `epoch`; false when interrupted.
    func waitToResume(policy: BufferPolicy, extra: () -> Duration, since epoch: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let began = ContinuousClock.now
        let before = lockedSpan + extra()
        while !closed && wakeEpoch == epoch {
            let buffered = lockedSpan + extra()
            if failure != nil || policy.mayResumeAfterStall(buffered: buffered, packets: entries.count - head, ended: ended,
                                                            stalled: ContinuousClock.now - began, gained: buffered - before) {
                return true
            }
            condition.wait()
        }
        return false
    }

    // MARK: Control

    private var wakeEpoch = 0

    /// Counts `wake()` calls; see `pop(wait:since:)`.
    var epoch: Int {
        condition.lock()
        defer { condition.unlock() }
        return wakeEpoch
    }

    /// Makes a blocked decoder return `.interrupted` so it looks at its control state.
    func wake() {
        condition.lock()
        wakeEpoch += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Ends both sides for good and drops the queued packets.
    func close() {
        condition.lock()
        closed = true
        entries.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
