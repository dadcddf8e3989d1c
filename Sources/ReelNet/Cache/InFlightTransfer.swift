import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
import ReelManifest
import ReelStore
#endif

/// One network transfer filling a cache entry, shared by every reader of its key: the entry of
/// the cache's in-flight registry. Bytes go through a `TeeDataSource` into the entry's temporary
/// file; the reader at the front pulls the next chunk from the network straight into its own
/// buffer (so a lone reader gets bytes as they arrive), readers behind it read the temporary file.
/// Whoever needs bytes past the front and finds nobody pulling pulls, so the transfer goes on
/// while any reader is left; when the last one leaves early, what arrived is kept as a partial
/// entry. The origin tag (prefetch or playback) and whether playback read the bytes go into the
/// entry for the CDN-cost ledger.
// @unchecked Sendable: every mutable field is read and written only while holding `condition`;
// `tee` and `writer` are used outside it only by the one reader that set `pulling`, or by the one
// caller of `windUp` after the reading stopped (readers of the tee's metrics wait while it closes).
final class InFlightTransfer: @unchecked Sendable {
    enum Phase {
        case opening, streaming, finished
        case failed(ReelError)
    }

    enum ReadResult {
        /// `pulled`: the bytes came from the network in this call (else from the shared file).
        case bytes(Int, pulled: Bool)
        case end
        /// Nothing past the position has arrived yet (a read that does not wait).
        case notYet
        /// The temporary file stopped (a write failed): this reader must fetch on its own.
        case detached
    }

    let key: String
    /// The key's whole range: offset `cacheKeyOffset`, the length asked for.
    let spec: DataSpec
    let origin: CacheOrigin
    /// Cancels the network transfer (when its only reader is cancelled).
    let upstreamCancellation = Cancellation()
    private let cache: Cache

    private let condition = NSCondition()
    private var phase = Phase.opening
    private var tee: TeeDataSource?
    private var writer: CacheWriter?
    private var fileBroken = false
    private var exclusiveTicket: Int?
    private var available: Int64 = 0
    private var fileBytes: Int64 = 0
    private var resumedBytes: Int64 = 0
    private var totalLength: Int64?
    private var readers: Set<Int> = []
    private var nextTicket = 0
    private var pulling = false
    private var playbackRead = false
    private var windingUp = false
    /// The only reader was cancelled and the network is being stopped: nobody may join (a new
    /// reader would follow a transfer about to fail); it waits for the settle and resumes.
    private var cancelling = false
    private var settled = false
    /// `windUp` is closing the network side, which writes the tee's metrics: readers of the
    /// metrics wait for it.
    private var closingUpstream = false
    private var descriptors: [Int: Int32] = [:]
    private var finalMetrics = TransferMetrics()

    init(spec: DataSpec, origin: CacheOrigin, cache: Cache) {
        self.key = spec.cacheKey
        self.spec = spec
        self.origin = origin
        self.cache = cache
    }

    deinit {
        for fd in descriptors.values { Glibc.close(fd) }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: Registry side (called under the cache's lock)

    /// Adds a reader; nil once the transfer is being cancelled or winding up (wait for
    /// `waitUntilSettled`, then plan again).
    func join(origin: CacheOrigin) -> Int? {
        locked {
            guard !windingUp, !cancelling else { return nil }
            nextTicket += 1
            readers.insert(nextTicket)
            if origin == .playback { playbackRead = true }
            if let fd = writer?.duplicateDescriptor(), fd >= 0 { descriptors[nextTicket] = fd }
            return nextTicket
        }
    }

    /// Bytes that came from the network (not from a resumed partial entry).
    var networkBytes: Int64 { locked { available - resumedBytes } }

    /// The playlist text when the entry may be one (for liveness), else nil.
    var playlistText: [UInt8]? { locked { writer?.capturedText ?? sealedText } }
    private var sealedText: [UInt8]?

    /// The transfer has reached its end (or failed) and is being settled: `waitUntilSettled`
    /// returns soon. False while it streams, which may last as long as a reader holds it.
    var hasEnded: Bool {
        locked {
            switch phase {
            case .finished, .failed: true
            case .opening, .streaming: windingUp
            }
        }
    }

    /// The cache has indexed (or dropped) the entry and forgotten the transfer.
    func markSettled() {
        locked {
            settled = true
            condition.broadcast()
        }
    }

    /// Blocks until the cache has settled the transfer; throws when `cancellation` fires first
    /// (its handler must call `wake`).
    func waitUntilSettled(cancellation: Cancellation) throws {
        try locked {
            while !settled {
                if cancellation.isCancelled {
                    throw cancelledRead
                }
                condition.wait()
            }
        }
    }

    /// The error of a reader whose own cancel ended its wait or read.
    private var cancelledRead: ReelError { ReelError(.cancelled, "read of '\(spec.url.absoluteString)' cancelled") }

    /// Wakes every blocked caller to look at its cancellation again.
    func wake() {
        locked { condition.broadcast() }
    }

    // MARK: Leader side

    /// The network answered: `tee` streams the rest into `writer`'s file, after `resumed` bytes
    /// already written there.
    func started(_ tee: TeeDataSource, writer: CacheWriter?, resumed: Int64, totalLength: Int64?) {
        locked {
            self.tee = tee
            self.writer = writer
            resumedBytes = resumed
            available = resumed
            fileBroken = writer == nil
            fileBytes = fileBroken ? 0 : resumed
            if fileBroken { exclusiveTicket = readers.min() }
            for ticket in readers where descriptors[ticket] == nil {
                if let fd = writer?.duplicateDescriptor(), fd >= 0 { descriptors[ticket] = fd }
            }
            self.totalLength = totalLength
            phase = .streaming
            condition.broadcast()
        }
    }

    /// The network could not be opened; every reader gets `error` (the opener then settles it).
    func failedToOpen(_ error: ReelError) {
        locked {
            phase = .failed(error)
            windingUp = true
            condition.broadcast()
        }
    }

    // MARK: Reader side

    /// Blocks until the response started; the key's total length when known.
    func waitForResponse(cancellation: Cancellation) throws -> Int64? {
        try locked {
            while true {
                if cancellation.isCancelled { throw cancelledRead }
                switch phase {
                case .opening: condition.wait()
                case .streaming, .finished: return totalLength
                case .failed(let error): throw error
                }
            }
        }
    }

    /// Wakes waiting readers (a cancel); when `ticket` is the only reader, also stops the network,
    /// closing the transfer to new readers in the same critical section.
    func cancel(ticket: Int) {
        let alone = locked { () -> Bool in
            condition.broadcast()
            guard readers == [ticket] else { return false }
            cancelling = true
            return true
        }
        if alone { upstreamCancellation.cancel() }
    }

    /// Reads at `position` (key coordinates) for reader `ticket`; with `wait` false, answers
    /// `notYet` instead of waiting for bytes that have not arrived.
    func read(ticket: Int, at position: Int64, into buffer: UnsafeMutableRawBufferPointer,
              cancellation: Cancellation, wait: Bool = true) throws -> ReadResult {
        guard buffer.count > 0 else { return .bytes(0, pulled: false) }
        condition.lock()
        while true {
            if cancellation.isCancelled {
                condition.unlock()
                throw cancelledRead
            }
            if position < fileBytes, let fd = descriptors[ticket] {
                let count = Int(min(Int64(buffer.count), fileBytes - position))
                condition.unlock()
                let got = try CacheFiles.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]),
                                              at: position, path: "cache file of '\(key)'")
                return got > 0 ? .bytes(got, pulled: false) : .detached
            }
            if position < available {
                condition.unlock()
                return .detached
            }
            switch phase {
            case .opening:
                guard wait else {
                    condition.unlock()
                    return .notYet
                }
                condition.wait()
                continue
            case .finished:
                condition.unlock()
                return .end
            case .failed(let error):
                condition.unlock()
                throw error
            case .streaming:
                break
            }
            if position > available || pulling {
                guard wait else {
                    condition.unlock()
                    return .notYet
                }
                condition.wait()
                continue
            }
            if fileBroken, exclusiveTicket != ticket {
                condition.unlock()
                return .detached
            }
            pulling = true
            let tee = self.tee!
            condition.unlock()
            return try pull(tee, ticket: ticket, into: buffer, wait: wait)
        }
    }

    /// Reads the next chunk from the network into `buffer` (and the file), as the front reader;
    /// with `wait` false, only what has arrived.
    private func pull(_ tee: TeeDataSource, ticket: Int, into buffer: UnsafeMutableRawBufferPointer,
                      wait: Bool) throws -> ReadResult {
        let count: Int
        do {
            if !wait, let ready = try tee.readReady(into: buffer) {
                guard ready > 0 else {
                    locked {
                        pulling = false
                        condition.broadcast()
                    }
                    return .notYet
                }
                count = ready
            } else {
                count = try tee.read(into: buffer)
            }
        } catch {
            let failure = error as? ReelError ?? ReelError(.networkFailed, "reading '\(spec.url.absoluteString)' failed", cause: nil)
            locked {
                pulling = false
                phase = .failed(failure)
                condition.broadcast()
            }
            windUp(complete: false)
            throw failure
        }
        if count == 0 {
            let complete = locked { () -> Bool in
                pulling = false
                phase = .finished
                condition.broadcast()
                return totalLength.map { $0 == available } ?? true
            }
            windUp(complete: complete)
            return .end
        }
        locked {
            pulling = false
            available += Int64(count)
            if !tee.sinkFailed {
                fileBytes = available
            } else if !fileBroken {
                fileBroken = true
                exclusiveTicket = ticket
            }
            condition.broadcast()
        }
        cache.progress.changed()
        return .bytes(count, pulled: true)
    }

    /// Removes reader `ticket`; the last one out of an unfinished transfer winds it up, keeping
    /// what arrived as a partial entry.
    func leave(ticket: Int) {
        let last = locked { () -> Bool in
            readers.remove(ticket)
            if let fd = descriptors.removeValue(forKey: ticket) { Glibc.close(fd) }
            condition.broadcast()
            guard readers.isEmpty else { return false }
            if case .streaming = phase { return true }
            return false
        }
        if last {
            upstreamCancellation.cancel()
            windUp(complete: false)
        }
    }

    /// What the network request cost (status, timings), for the reader that opened it.
    var upstreamMetrics: TransferMetrics {
        locked {
            while closingUpstream { condition.wait() }
            return tee?.metrics ?? finalMetrics
        }
    }

    /// Closes the network side and hands the file to the cache to seal, once.
    private func windUp(complete: Bool) {
        let taken = locked { () -> (TeeDataSource, CacheWriter?, Int64?, Bool, Bool)? in
            guard !windingUp, let tee else { return nil }
            windingUp = true
            closingUpstream = true
            // A reader that stopped exactly at the end never pulled the end: it is complete too.
            let whole = complete || totalLength.map { $0 == available } ?? false
            let writer = self.writer
            self.writer = nil
            sealedText = writer?.capturedText
            return (tee, writer, totalLength, playbackRead, whole)
        }
        guard let (tee, writer, total, used, complete) = taken else { return }
        tee.close()
        locked {
            finalMetrics = tee.metrics
            closingUpstream = false
            condition.broadcast()
        }
        if tee.sinkFailed { writer?.abandon() }
        cache.settle(self, writer: tee.sinkFailed ? nil : writer, complete: complete, totalLength: total,
                     usedByPlayback: used)
    }
}
