import ReelCore
import Synchronization

/// One decoder of the pool, on a thread of its own: every FFmpeg call on its codec context (open,
/// flush, decode) runs on that thread, whoever holds it, so handing it from card to card never
/// races. Holders decode through `run(for:_:)`, which refuses a ticket that no longer holds it.
/// The corresponding C type is `AVCodecContext`.
public actor PooledDecoder {
    private let executor: DedicatedThreadExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    public nonisolated let id: Int
    private let threads: Int
    private var decoder: Decoder?
    /// The ticket the pool granted this decoder to, set synchronously by the pool.
    private let holder = Locked<Int?>(nil)
    /// Times a ticket that believed it held this decoder found another holder: an invariant breach.
    private let breaches = Atomic<Int>(0)

    init(id: Int, threads: Int) {
        self.id = id
        self.threads = threads
        self.executor = DedicatedThreadExecutor(name: "reel.decoder.\(id)")
    }

    deinit { executor.shutdown() }

    /// Opens a fresh codec context for `stream`, freeing the old one first: the first open, and a
    /// reconfigure (new extradata, e.g. Annex B to avcC, needs a new context). The corresponding C
    /// functions are `avcodec_free_context`, `avcodec_parameters_to_context` and `avcodec_open2`.
    func open(_ stream: StreamParameters) throws {
        decoder = nil
        decoder = try Decoder(parameters: stream.pointer, timeBase: stream.timeBase, threads: threads)
    }

    /// Drops buffered frames and decoder state; runs after every job of the previous holder.
    /// The corresponding C function is `avcodec_flush_buffers`.
    func flush() {
        decoder?.flush()
    }

    /// Runs `body` on this decoder's thread with its codec context when `ticket` holds it; nil
    /// when it does not (the pool took it back, or the ticket released it).
    public func run<T: Sendable>(for ticket: DecoderTicket, _ body: @Sendable (Decoder) throws -> T) rethrows -> T? {
        guard ticket.holds(self), let decoder else { return nil }
        if holder.withLock({ $0 }) != ticket.id {
            breaches.add(1, ordering: .relaxed)
            return nil
        }
        return try body(decoder)
    }

    nonisolated func setHolder(_ ticket: DecoderTicket?) {
        holder.withLock { $0 = ticket?.id }
    }

    nonisolated var breachCount: Int { breaches.load(ordering: .relaxed) }
}
