import ReelCore
import ReelServer

/// The network between the simulated phone and the CDN, as the CDN simulator shapes it: every
/// request waits the profile's latency (at the time it is made) before its first byte, then all
/// the bodies on the link share its bandwidth evenly (one link per client; the simulator
/// interleaves chunks of every connection on it, which this model takes as a fluid fair share),
/// fixed or following a bandwidth trace. A transfer can ask to hear when a part of its body has
/// arrived (the first frame needs only the start of a segment). Times are seconds since the
/// session began.
///
/// What it leaves out, on purpose: TCP slow start and connection setup (the engine keeps its
/// connections alive), loss, and the server's own speed; a request made while the link is idle
/// gets the whole link at once.
package struct SimLink: Sendable {
    package struct Transfer: Sendable {
        package var id: Int
        package var bytes: Int
        /// When its body starts to flow (the request's time plus the latency).
        package var flowsAt: Double
        /// Body bytes still to come.
        package var remaining: Double
        /// Remaining byte counts at which to report progress, largest first (the completion, 0,
        /// is reported apart).
        package var marks: [Double]
    }

    /// What the link reports when time moves.
    package enum Event: Sendable, Equatable {
        /// `bytes` of the transfer's body have arrived (a mark it asked for).
        case progress(id: Int, bytes: Int)
        case completed(id: Int)
    }

    let profile: NetworkProfile
    let schedule: LinkSchedule
    package private(set) var now = 0.0
    package private(set) var transfers: [Int: Transfer] = [:]
    /// Bytes the link has carried in all.
    package private(set) var carried: Double = 0

    package init(profile: NetworkProfile) {
        self.profile = profile
        schedule = LinkSchedule(profile)
    }

    /// The latency of a request made at `time`.
    package func latency(at time: Double) -> Double {
        Double(profile.trace?.step(at: time).step.latencyMilliseconds ?? profile.latencyMilliseconds) / 1000
    }

    /// Starts a transfer of `bytes` at the current time; `marks` are body byte counts to report.
    package mutating func start(id: Int, bytes: Int, marks: [Int] = []) {
        let remaining = Double(max(0, bytes))
        let marks = marks.filter { $0 > 0 && $0 < bytes }.map { remaining - Double($0) }.sorted(by: >)
        transfers[id] = Transfer(id: id, bytes: bytes, flowsAt: now + latency(at: now), remaining: remaining, marks: marks)
    }

    /// Also report when the transfer's body has `bytes` (one more mark).
    package mutating func addMark(_ id: Int, bytes: Int) {
        guard var transfer = transfers[id], bytes > 0, bytes < transfer.bytes else { return }
        transfer.marks.append(Double(transfer.bytes - bytes))
        transfer.marks.sort(by: >)
        transfers[id] = transfer
    }

    /// Drops a transfer; returns the body bytes it had received.
    @discardableResult
    package mutating func cancel(_ id: Int) -> Int {
        cancelWithOvershoot(id).received
    }

    /// Drops a transfer: the body bytes it had received, and those the server had sent by the
    /// time the cancel reached it (up to its share of the link over one latency: the bytes in
    /// flight, which the CDN bills though nobody reads them).
    package mutating func cancelWithOvershoot(_ id: Int) -> (received: Int, sent: Int) {
        let flowing = transfers.values.filter { $0.flowsAt <= now }.count
        guard let transfer = transfers.removeValue(forKey: id) else { return (0, 0) }
        let received = Int((Double(transfer.bytes) - transfer.remaining).rounded(.down))
        guard transfer.flowsAt <= now else { return (received, received) }
        let start = Self.nanoseconds(now), end = Self.nanoseconds(now + latency(at: now))
        let share = (schedule.carried(between: start, and: end) ?? transfer.remaining) / Double(max(1, flowing))
        return (received, received + Int(min(transfer.remaining, share).rounded(.down)))
    }

    /// Body bytes the transfer has received so far.
    package func received(_ id: Int) -> Int {
        transfers[id].map { Int((Double($0.bytes) - $0.remaining).rounded(.down)) } ?? 0
    }

    /// When the next thing happens on the link (a body starts to flow, a mark or a completion),
    /// if anything is on it.
    package func nextEvent() -> Double? {
        var next = transfers.values.filter { $0.flowsAt > now }.map(\.flowsAt).min()
        let flowing = transfers.values.filter { $0.flowsAt <= now }
        if !flowing.isEmpty {
            let least = flowing.map { $0.remaining - ($0.marks.first ?? 0) }.min() ?? 0
            let done = finish(Double(flowing.count) * least)
            next = min(next ?? done, done)
        }
        return next
    }

    /// Moves the link to `time`, sharing what it carries evenly among the flowing bodies (the set
    /// changes at each event on the way), and returns what happened, in time order.
    package mutating func advance(to time: Double) -> [Event] {
        var events: [Event] = []
        while let next = nextEvent(), next < time {
            events += step(to: next)
        }
        return events + step(to: time)
    }

    /// Moves to `time`, which is not past `nextEvent()`: the flowing bodies stay the same.
    private mutating func step(to time: Double) -> [Event] {
        guard time > now else { return collect() }
        let flowing = transfers.values.filter { $0.flowsAt <= now }.map(\.id)
        if !flowing.isEmpty {
            let capacity = carriedBetween(now, time)
            carried += capacity
            let share = capacity / Double(flowing.count)
            for id in flowing { transfers[id]?.remaining -= share }
        }
        now = time
        return collect()
    }

    /// Marks reached and transfers done at `now` (within half a byte: times are nanoseconds).
    private mutating func collect() -> [Event] {
        var events: [Event] = []
        for id in transfers.keys.sorted() {
            guard var transfer = transfers[id], transfer.flowsAt <= now else { continue }
            while let mark = transfer.marks.first, transfer.remaining <= mark + 0.5 {
                transfer.marks.removeFirst()
                events.append(.progress(id: id, bytes: Int((Double(transfer.bytes) - mark).rounded())))
            }
            if transfer.remaining <= 0.5 {
                transfers[id] = nil
                events.append(.completed(id: id))
            } else {
                transfers[id] = transfer
            }
        }
        return events
    }

    /// When the link, from now, has carried `bytes` more.
    private func finish(_ bytes: Double) -> Double {
        guard bytes > 0.5 else { return now }
        guard let end = schedule.finish(Int(bytes.rounded(.up)), from: Self.nanoseconds(now)) else { return now }
        return max(now, Double(end) / 1e9)
    }

    /// Bytes the link carries between two times.
    private func carriedBetween(_ start: Double, _ end: Double) -> Double {
        schedule.carried(between: Self.nanoseconds(start), and: Self.nanoseconds(end)) ?? .infinity
    }

    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, (seconds * 1e9).rounded())) }
}
