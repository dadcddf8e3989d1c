import ReelCore
import Synchronization

/// A holder's claim on the decoder pool: which card, how much it needs a decoder now, and which
/// decoder it holds, if any. The holder changes its priority from any thread; the pool revokes
/// under the same lock, so a holder that began playing can no longer lose its decoder, and a
/// holder whose decoder was taken finds out before it touches it again.
public final class DecoderTicket: Sendable, CustomStringConvertible {
    private struct State {
        var priority: DecoderPriority
        var decoder: PooledDecoder?
        var revoked = false
    }

    public let card: String
    /// Unique per ticket, for logs and invariant checks.
    public let id: Int
    private let state: Locked<State>
    private let revokeHandler: Locked<@Sendable () -> Void>
    private static let counter = Atomic<Int>(0)

    /// `onRevoke` runs (on the pool's side, outside any lock) when the pool takes the decoder back.
    public init(card: String, priority: DecoderPriority = .mounted, onRevoke: @escaping @Sendable () -> Void = {}) {
        self.card = card
        self.id = Self.counter.add(1, ordering: .relaxed).newValue
        self.state = Locked(State(priority: priority))
        self.revokeHandler = Locked(onRevoke)
    }

    /// Replaces what runs when the pool takes the decoder back.
    public func onRevoke(_ handler: @escaping @Sendable () -> Void) {
        revokeHandler.withLock { $0 = handler }
    }

    public var priority: DecoderPriority { state.withLock { $0.priority } }

    /// The decoder held now, or nil (not granted yet, released, or taken back).
    public var decoder: PooledDecoder? { state.withLock { $0.decoder } }

    /// True once the pool took the decoder back (until it grants one again).
    public var isRevoked: Bool { state.withLock { $0.revoked } }

    /// Sets the priority; a waiting request is re-ranked on the pool's next `reschedule()`.
    public func setPriority(_ priority: DecoderPriority) {
        state.withLock { $0.priority = priority }
    }

    /// Moves to `.playing` unless the decoder was taken back; true when the ticket still holds
    /// its decoder, which from now on nobody can preempt.
    public func beginPlaying() -> Bool {
        state.withLock { state in
            state.priority = .playing
            return state.decoder != nil && !state.revoked
        }
    }

    /// True when this ticket holds `decoder` now.
    func holds(_ decoder: PooledDecoder) -> Bool {
        state.withLock { $0.decoder === decoder && !$0.revoked }
    }

    func grant(_ decoder: PooledDecoder) {
        state.withLock {
            $0.decoder = decoder
            $0.revoked = false
        }
    }

    /// Takes the decoder back when a request of `priority` may preempt this holder now; true when
    /// it did. Runs `onRevoke` afterwards.
    func revoke(for priority: DecoderPriority) -> Bool {
        let revoked = state.withLock { state -> Bool in
            guard state.decoder != nil, !state.revoked, priority.mayPreempt(state.priority) else { return false }
            state.revoked = true
            state.decoder = nil
            return true
        }
        if revoked { revokeHandler.withLock { $0 }() }
        return revoked
    }

    /// The holder gave the decoder back.
    func clear() {
        state.withLock { $0.decoder = nil }
    }

    public var description: String { "\(card)#\(id)" }
}
