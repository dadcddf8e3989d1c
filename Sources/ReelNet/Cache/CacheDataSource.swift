import Foundation
import ReelCore
import ReelManifest
import ReelStore

/// Reads through the disk cache, as ExoPlayer's `CacheDataSource` does: a complete entry is read
/// from disk (length and checksum checked first; a mismatch evicts it and refetches); otherwise
/// the bytes stream from the upstream source to the reader and, through a `TeeDataSource`, into
/// the cache at once. A second reader of a key being fetched follows the first one's transfer
/// instead of starting its own; a partial entry is resumed with a Range request; a live playlist
/// is refetched while online. Offline (`NetworkReachability`: for every host, or for the one
/// host that could not be reached), only complete entries are served.
/// Only http(s) resources are cached; local files go straight to the upstream source.
/// Blocking, like every `DataSource`: used by one dedicated thread at a time.
public final class CacheDataSource: DataSource {
    private enum Mode {
        case idle
        case memory(bytes: [UInt8], position: Int, end: Int)
        case transfer(InFlightTransfer, ticket: Int, position: Int64, end: Int64?, leader: Bool)
        case direct(any DataSource)
    }

    private let cache: Cache
    private let upstream: any DataSourceFactory
    private let cancellation: Cancellation
    private let origin: CacheOrigin
    private let reachability: NetworkReachability
    private var mode = Mode.idle
    private var currentMetrics = TransferMetrics()
    private var cancelHandler: Int?
    /// Counted in the cache's hit/miss statistics (http(s) reads only).
    private var counted = false
    private var wholeHit = false
    private var networkBytes: Int64 = 0

    public init(cache: Cache, upstream: any DataSourceFactory, cancellation: Cancellation, origin: CacheOrigin = .playback,
                reachability: NetworkReachability = NetworkReachability()) {
        self.cache = cache
        self.upstream = upstream
        self.cancellation = cancellation
        self.origin = origin
        self.reachability = reachability
    }

    deinit { close() }

    public func open(_ spec: DataSpec) throws -> Int64? {
        close()
        currentMetrics = TransferMetrics(url: spec.url.absoluteString, kind: spec.kind)
        wholeHit = false
        networkBytes = 0
        guard let scheme = spec.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return try openDirect(spec, stale: nil)
        }
        counted = true
        if cancellation.isCancelled { throw ReelError(.cancelled, "cancelled before opening '\(spec.url.absoluteString)'") }
        while true {
            switch cache.plan(spec, origin: origin, offline: reachability.isOffline(for: spec.url)) {
            case .hit(let entry):
                guard let bytes = cache.readVerified(entry) else { continue }  // evicted: plan again (a miss)
                if origin == .playback, entry.origin == .prefetch, !entry.usedByPlayback { cache.markUsedByPlayback(entry) }
                wholeHit = true
                return try serve(bytes, spec: spec)
            case .wait(let transfer):
                cache.notify(.waitingForSettle(key: transfer.key))
                let wake = cancellation.onCancel { transfer.wake() }
                defer { cancellation.removeHandler(wake) }
                try transfer.waitUntilSettled(cancellation: cancellation)
            case .offlineMiss:
                let why = reachability.isForcedOffline ? "offline mode is on" : "the network is unreachable"
                throw ReelError(.offline, "'\(spec.url.absoluteString)' is not in the cache and \(why)",
                                cause: reachability.failure(for: spec.url))
            case .bypass(let stale):
                return try openDirect(spec, stale: stale)
            case .follow(let transfer, let ticket):
                return try follow(transfer, ticket: ticket, spec: spec, leader: false)
            case .lead(let transfer, let ticket, let partial, let stale):
                // A cancel while the network is being opened stops that open too.
                cancelHandler = cancellation.onCancel { transfer.cancel(ticket: ticket) }
                do {
                    try start(transfer, partial: partial)
                } catch {
                    if let cancelHandler { cancellation.removeHandler(cancelHandler) }
                    cancelHandler = nil
                    transfer.leave(ticket: ticket)
                    reachability.note(error, for: spec.url)
                    if let stale, NetworkReachability.meansUnreachable(error as? ReelError ?? ReelError(.networkFailed, "")),
                       let bytes = cache.readVerified(stale) {
                        wholeHit = true
                        return try serve(bytes, spec: spec)
                    }
                    throw error
                }
                return try follow(transfer, ticket: ticket, spec: spec, leader: true)
            }
        }
    }

    /// Opens the network for a transfer this source leads, resuming a partial entry when its
    /// bytes check out and the resource has not changed size.
    private func start(_ transfer: InFlightTransfer, partial: CacheEntry?) throws {
        var prefix = partial.flatMap { cache.readVerified($0) } ?? []
        var attempt = 0
        while true {
            attempt += 1
            let writer = cache.makeWriter(key: transfer.key, kind: transfer.spec.kind)
            if let writer, !prefix.isEmpty, cache.orAbandon(writer, { try writer.write(prefix) }) == nil {
                prefix = []
                continue
            }
            if writer == nil { prefix = [] }
            let source = upstream.makeDataSource(cancellation: transfer.upstreamCancellation)
            let cache = self.cache
            let tee = TeeDataSource(upstream: source, sink: writer, onSinkFailure: { cache.writeFailed($0) })
            let length: Int64?
            do {
                length = try tee.open(transfer.spec.advanced(by: Int64(prefix.count)))
            } catch {
                tee.close()
                writer?.abandon()
                currentMetrics = source.metrics
                let failure = error as? ReelError ?? ReelError(.networkFailed, "opening '\(transfer.spec.url.absoluteString)' failed")
                transfer.failedToOpen(failure)
                cache.settle(transfer, writer: nil, complete: false, totalLength: nil, usedByPlayback: false)
                throw failure
            }
            if !prefix.isEmpty, let expected = partial?.totalLength, let length,
               Int64(prefix.count) + length != expected, attempt == 1 {
                // The resource is not the one the partial entry began: start it over.
                tee.close()
                writer?.abandon()
                if let partial { cache.evict(partial, reason: .replaced) }
                prefix = []
                continue
            }
            transfer.started(tee, writer: writer, resumed: Int64(prefix.count),
                             totalLength: length.map { Int64(prefix.count) + $0 })
            return
        }
    }

    /// Reads `transfer` from the position `spec` asks for.
    private func follow(_ transfer: InFlightTransfer, ticket: Int, spec: DataSpec, leader: Bool) throws -> Int64? {
        let position = spec.offset - spec.cacheKeyOffset
        mode = .transfer(transfer, ticket: ticket, position: position, end: spec.length.map { position + $0 }, leader: leader)
        if cancelHandler == nil { cancelHandler = cancellation.onCancel { transfer.cancel(ticket: ticket) } }
        let total = try transfer.waitForResponse(cancellation: cancellation)
        guard let total else { return spec.length }
        let remaining = max(0, total - position)
        return spec.length.map { min($0, remaining) } ?? remaining
    }

    /// Serves verified cached bytes from the position `spec` asks for.
    private func serve(_ bytes: [UInt8], spec: DataSpec) throws -> Int64? {
        let position = Int(spec.offset - spec.cacheKeyOffset)
        guard position <= bytes.count else {
            throw ReelError(.invalidInput, "cannot read '\(spec.url.absoluteString)' from byte \(spec.offset): the cached resource has \(bytes.count) bytes")
        }
        let end = spec.length.map { min(bytes.count, position + Int($0)) } ?? bytes.count
        mode = .memory(bytes: bytes, position: position, end: end)
        currentMetrics.cacheHit = true
        return Int64(end - position)
    }

    /// Reads the upstream source without the cache, falling back on a stale live playlist when
    /// the network is unreachable.
    private func openDirect(_ spec: DataSpec, stale: CacheEntry?) throws -> Int64? {
        let source = upstream.makeDataSource(cancellation: cancellation)
        mode = .direct(source)
        do {
            return try source.open(spec)
        } catch {
            reachability.note(error, for: spec.url)
            if let stale, let reelError = error as? ReelError, NetworkReachability.meansUnreachable(reelError),
               let bytes = cache.readVerified(stale) {
                source.close()
                wholeHit = true
                return try serve(bytes, spec: spec)
            }
            throw error
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        // Waiting, a read always has an answer.
        try read(into: buffer, wait: true) ?? 0
    }

    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try read(into: buffer, wait: false)
    }

    /// `read`, or with `wait` false `readReady`: 0 when nothing has arrived yet, nil when the
    /// source under it cannot tell.
    private func read(into buffer: UnsafeMutableRawBufferPointer, wait: Bool) throws -> Int? {
        switch mode {
        case .idle:
            throw ReelError(.internalFailure, "read before open")
        case .memory(let bytes, let position, let end):
            let count = min(buffer.count, end - position)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + count)]))
            }
            mode = .memory(bytes: bytes, position: position + count, end: end)
            currentMetrics.bytes += Int64(count)
            currentMetrics.cacheHitBytes += Int64(count)
            return count
        case .direct(let source):
            guard let count = try wait ? source.read(into: buffer) : source.readReady(into: buffer) else { return nil }
            currentMetrics.bytes += Int64(count)
            networkBytes += Int64(count)
            return count
        case .transfer(let transfer, let ticket, let position, let end, let leader):
            var want = buffer.count
            if let end { want = Int(min(Int64(want), end - position)) }
            guard want > 0 else { return 0 }
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[..<want])
            switch try transfer.read(ticket: ticket, at: position, into: slice, cancellation: cancellation, wait: wait) {
            case .bytes(let count, let pulled):
                mode = .transfer(transfer, ticket: ticket, position: position + Int64(count), end: end, leader: leader)
                currentMetrics.bytes += Int64(count)
                if pulled { networkBytes += Int64(count) } else { currentMetrics.cacheHitBytes += Int64(count) }
                return count
            case .end, .notYet:
                return 0
            case .detached:
                // The shared file stopped (a failed write): fetch the rest on our own.
                if leader { mergeNetworkMetrics(transfer.upstreamMetrics) }
                leaveTransfer()
                var rest = transfer.spec.advanced(by: position)
                if let end { rest.length = end - position }
                let source = upstream.makeDataSource(cancellation: cancellation)
                mode = .direct(source)
                _ = try source.open(rest)
                return try read(into: buffer, wait: wait)
            }
        }
    }

    public func close() {
        switch mode {
        case .idle, .memory:
            break
        case .direct(let source):
            source.close()
            mergeNetworkMetrics(source.metrics)
        case .transfer(let transfer, _, _, _, let leader):
            if leader { mergeNetworkMetrics(transfer.upstreamMetrics) }
            leaveTransfer()
        }
        mode = .idle
        if counted {
            cache.record(hit: wholeHit, cacheBytes: currentMetrics.cacheHitBytes, networkBytes: networkBytes)
            counted = false
        }
    }

    private func leaveTransfer() {
        if let cancelHandler { cancellation.removeHandler(cancelHandler) }
        cancelHandler = nil
        if case .transfer(let transfer, let ticket, _, _, _) = mode { transfer.leave(ticket: ticket) }
        mode = .idle
    }

    /// Takes status and timings from the network request this source made.
    private func mergeNetworkMetrics(_ network: TransferMetrics) {
        currentMetrics.httpStatus = network.httpStatus
        currentMetrics.dnsMs = network.dnsMs
        currentMetrics.connectMs = network.connectMs
        currentMetrics.tlsMs = network.tlsMs
        currentMetrics.firstByteMs = network.firstByteMs
        currentMetrics.totalMs = network.totalMs
        currentMetrics.attempts = network.attempts
        currentMetrics.reusedConnection = network.reusedConnection
    }

    public var metrics: TransferMetrics { currentMetrics }
}
