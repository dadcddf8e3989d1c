/// Decides where a request for a decoder goes, from a view of the pool's decoders alone (pure, so
/// tests drive it directly). In order:
/// 1. an idle decoder that shares the stream's format (codec and bitstream format): reuse, the
///    most recently used one;
/// 2. a new decoder while the pool holds fewer than `capacity`;
/// 3. an idle decoder of the same codec: reconfigure, preferring a format that has another idle
///    decoder (so each format keeps one), then the least recently used;
/// 4. any idle decoder: evict the least recently used;
/// 5. a holder the request may preempt (`DecoderPriority.mayPreempt`: strictly lower, never
///    playing): the lowest priority, then one of the same format, then the least recently used;
/// 6. otherwise wait.
public struct DecoderPoolPolicy: Sendable {
    /// One decoder as the policy sees it.
    public struct Candidate: Sendable, Hashable {
        public enum State: Sendable, Hashable {
            case idle
            case held(DecoderPriority)
            /// Being opened, flushed or handed over: neither free nor preemptable.
            case busy
        }

        public var id: Int
        public var format: StreamFormat?
        public var state: State
        /// A tick of the pool's logical clock: larger is more recent.
        public var lastUsed: UInt64

        public init(id: Int, format: StreamFormat?, state: State, lastUsed: UInt64) {
            self.id = id
            self.format = format
            self.state = state
            self.lastUsed = lastUsed
        }
    }

    public var capacity: Int

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public func place(_ format: StreamFormat, priority: DecoderPriority, among decoders: [Candidate]) -> DecoderPlacement {
        let idle = decoders.filter { $0.state == .idle }
        if let match = idle.filter({ $0.format.map(format.sharesDecoder) ?? false }).max(by: { $0.lastUsed < $1.lastUsed }) {
            return .reuse(match.id)
        }
        if decoders.count < capacity { return .create }
        let sameKind = idle.filter { $0.format.map(format.sameKind) ?? true }
        if !sameKind.isEmpty {
            func duplicated(_ candidate: Candidate) -> Bool {
                idle.contains { other in
                    other.id != candidate.id && other.format != nil && candidate.format != nil
                        && other.format!.sharesDecoder(with: candidate.format!)
                }
            }
            let chosen = sameKind.min { a, b in
                let (da, db) = (duplicated(a), duplicated(b))
                return da != db ? da : a.lastUsed < b.lastUsed
            }!
            return .reconfigure(chosen.id)
        }
        if let oldest = idle.min(by: { $0.lastUsed < $1.lastUsed }) { return .evict(oldest.id) }
        let victims = decoders.compactMap { candidate -> (Candidate, DecoderPriority)? in
            guard case .held(let held) = candidate.state, priority.mayPreempt(held) else { return nil }
            return (candidate, held)
        }
        let victim = victims.min { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            let (ma, mb) = (a.0.format.map(format.sharesDecoder) ?? false, b.0.format.map(format.sharesDecoder) ?? false)
            return ma != mb ? ma : a.0.lastUsed < b.0.lastUsed
        }
        if let victim { return .preempt(victim.0.id) }
        return .wait
    }
}
