import Foundation
import Logging
import ReelCore

#if canImport(Glibc)
import Glibc
import ReelManifest
import ReelStore
#endif

/// The disk cache of playlists, init sections, segments, keys and images: LRU by bytes under
/// `maxBytes`, keyed by `DataSpec.cacheKey`, content files named by a hash of the key, an index
/// in SQLite (WAL) mirrored in memory. See docs/cache.md for the layout and the atomicity argument.
///
/// A `final class` guarded by `Locked` values rather than an actor (DESIGN.md, Threads): its callers are
/// data sources, which block on dedicated threads by contract, and must look entries up
/// synchronously without hopping to the cooperative pool (an actor would force every read
/// through `await`, or a blocking bridge per lookup). Lookups and LRU touches run in memory under
/// `state`; SQLite writes are batched and applied in order under `store`, off the lookup path;
/// seals (fsync, rename) and index writes of finished transfers run on one serial commit queue.
/// Lock order: `store` before `state`; never the other way.
public final class Cache: Sendable {
    public let directory: URL
    public let maxBytes: Int64
    /// Why the cache is off (folder not usable, index not openable, in use by another process),
    /// or nil when it works.
    public let disabledReason: String?
    /// Why the cache was opened read-only (a full disk, a read-only folder), or nil: it serves
    /// what it holds and stores nothing.
    public let readOnlyReason: String?
    let path: String
    let state: Locked<State>
    let store: Locked<CacheIndexStore?>
    private let lockDescriptor: Int32
    /// Where the cache says what went wrong (`reel.cache` unless the opener gave another).
    let logger: Logger
    /// How sealed files are made durable (the real file system, or a test's seam).
    let fileSystem: any CacheFileSystem
    private let commits = SerialWorkQueue(name: "reel.cache.commit")
    /// Fires whenever a transfer into the cache receives bytes (see `bytesInFlight(of:)`).
    public let progress = ChangeSignal()

    struct State: Sendable {
        var index = CacheIndex()
        var inFlight: [String: InFlightTransfer] = [:]
        var pending = CacheIndexBatch()
        var counters = CacheCounters()
        var countersDirty = false
        var nextGeneration: Int64 = 1
        /// Why nothing new is stored (read-only, a write failed, the cache is off); nil while writes go on.
        var writeFailure: String?
        var writesEnabled: Bool { writeFailure == nil }
        var indexBytes: Int64 = 0
        /// Bytes in `tmp/` files being written: they count toward the cap while they grow.
        var temporaryBytes: Int64 = 0
        /// An eviction for temporary bytes is queued on the commit queue.
        var evictionQueued = false
        var observers: [Int: @Sendable (CacheEvent) -> Void] = [:]
        var nextObserver = 0
        /// `close` began: no new writers.
        var closed = false
        /// `close` drained the commit queue: no more rows can be written.
        var indexClosed = false
    }

    /// Touches buffered before they are written out together.
    private static let touchBatch = 1024

    init(directory: URL, maxBytes: Int64, disabledReason: String?, readOnlyReason: String?,
         store: sending CacheIndexStore?, state: sending State, lockDescriptor: Int32, logger: Logger,
         fileSystem: any CacheFileSystem = .posix) {
        self.directory = directory
        self.path = directory.path
        self.maxBytes = maxBytes
        self.disabledReason = disabledReason
        self.readOnlyReason = readOnlyReason
        self.store = Locked(store)
        self.state = Locked(state)
        self.lockDescriptor = lockDescriptor
        self.logger = logger
        self.fileSystem = fileSystem
    }

    // Every commit block holds `self`, so by the time this runs the queue has nothing of ours left.
    deinit { close(drain: false) }

    /// True when the cache serves entries (and stores them unless `writeFailure` says why not).
    public var isEnabled: Bool { disabledReason == nil }

    /// Why the cache stores nothing new: opened read-only, a write failed (the first failure
    /// stops writes for the process), or the cache is off. Nil while writes go on.
    public var writeFailure: String? { state.withLock { $0.writeFailure } }

    // MARK: Lookup

    /// The entry for `key`, marked as just used (LRU), or nil. No I/O.
    public func lookup(_ key: String) -> CacheEntry? {
        let (entry, flushDue) = state.withLock { state -> (CacheEntry?, Bool) in
            guard let entry = state.index.touch(key) else { return (nil, false) }
            state.pending.touches[key] = entry.lastAccess
            return (entry, state.pending.touches.count >= Self.touchBatch)
        }
        if flushDue { commits.async { [self] in flush() } }
        return entry
    }

    /// The entry for `key` without touching it.
    public func peek(_ key: String) -> CacheEntry? {
        state.withLock { $0.index.entry(key) }
    }

    /// True when the whole of `spec`'s resource is cached (complete entry).
    public func containsComplete(_ spec: DataSpec) -> Bool {
        peek(spec.cacheKey)?.isComplete == true
    }

    /// The bytes of the entry for `spec` when it is whole in the cache, else nil.
    package func completeBytes(_ spec: DataSpec) -> Int? {
        if case .complete(let bytes) = status(of: spec.cacheKey) { return Int(bytes) }
        return nil
    }

    /// Whether `key` is cached, partly cached, being fetched, or absent.
    public func status(of key: String) -> CacheStatus {
        state.withLock { state in
            if let transfer = state.inFlight[key] { return .inFlight(origin: transfer.origin) }
            guard let entry = state.index.entry(key) else { return .absent }
            return entry.isComplete ? .complete(bytes: entry.length) : .partial(bytes: entry.length)
        }
    }

    /// The bytes the key's transfer has received from the network so far; nil when none is in flight.
    public func bytesInFlight(of key: String) -> Int64? {
        let transfer = state.withLock { $0.inFlight[key] }
        return transfer?.networkBytes
    }

    /// Every entry, least recently used first.
    public var entries: [CacheEntry] { state.withLock { $0.index.entriesInLRUOrder } }

    /// The content bytes of `entry`, after checking their length and checksum; on a mismatch the
    /// entry is evicted and nil returned (the caller refetches). Blocking file I/O.
    func readVerified(_ entry: CacheEntry) -> [UInt8]? {
        let file = CacheFiles.contentPath(path, entry.file)
        let bytes: [UInt8]
        do {
            bytes = try CacheFiles.readWhole(file, expected: entry.length)
        } catch {
            evict(entry, reason: .corrupt)
            return nil
        }
        guard XXHash64.hash(bytes) == entry.checksum else {
            evict(entry, reason: .corrupt)
            return nil
        }
        return bytes
    }

    // MARK: Reading plans

    /// How a data source should serve one open.
    enum ReadPlan {
        /// A complete entry: read and verify it.
        case hit(CacheEntry)
        /// Another reader's transfer of the same key: follow its bytes.
        case follow(InFlightTransfer, ticket: Int)
        /// Start a transfer (resuming `partial`; `stale` is a live playlist's cached copy to fall
        /// back on when the network is down).
        case lead(InFlightTransfer, ticket: Int, partial: CacheEntry?, stale: CacheEntry?)
        /// A transfer of the key is being wound up: wait for it, then plan again.
        case wait(InFlightTransfer)
        /// Offline, and the key is not cached whole.
        case offlineMiss
        /// Read the network without caching (cache off, writes off, a read from the middle of
        /// an uncached resource); `stale` as for `lead`.
        case bypass(stale: CacheEntry?)
    }

    func plan(_ spec: DataSpec, origin: CacheOrigin, offline: Bool) -> ReadPlan {
        let position = spec.offset - spec.cacheKeyOffset
        guard isEnabled, position >= 0 else { return offline ? .offlineMiss : .bypass(stale: nil) }
        let key = spec.cacheKey
        let (plan, flushDue) = state.withLock { state -> (ReadPlan, Bool) in
            let entry = state.index.entry(key)
            if let entry, entry.isComplete, !entry.isLive || offline {
                let touched = state.index.touch(key) ?? entry
                state.pending.touches[key] = touched.lastAccess
                return (.hit(touched), state.pending.touches.count >= Self.touchBatch)
            }
            if offline { return (.offlineMiss, false) }
            let stale = entry.flatMap { $0.isComplete && $0.isLive ? $0 : nil }
            if let transfer = state.inFlight[key] {
                guard let ticket = transfer.join(origin: origin) else { return (.wait(transfer), false) }
                return (.follow(transfer, ticket: ticket), false)
            }
            let partial = entry.flatMap { $0.isComplete ? nil : $0 }
            guard state.writesEnabled, position <= (partial?.length ?? 0) else { return (.bypass(stale: stale), false) }
            var keySpec = spec.advanced(by: -position)
            keySpec.offset = spec.cacheKeyOffset
            let transfer = InFlightTransfer(spec: keySpec, origin: origin, cache: self)
            state.inFlight[key] = transfer
            let ticket = transfer.join(origin: origin)!
            return (.lead(transfer, ticket: ticket, partial: partial, stale: stale), false)
        }
        if flushDue { commits.async { [self] in flush() } }
        return plan
    }

    // MARK: Writing

    /// A writer for a new version of `key`, or nil when writes are off.
    func makeWriter(key: String, kind: ResourceKind) -> CacheWriter? {
        let generation = state.withLock { state -> Int64? in
            guard state.writesEnabled, !state.closed else { return nil }
            defer { state.nextGeneration += 1 }
            return state.nextGeneration
        }
        guard let generation else { return nil }
        do {
            return try CacheWriter(directory: path, key: key, kind: kind, generation: generation, fileSystem: fileSystem,
                                   reserve: { [weak self] in self?.reserveTemporary($0) ?? false },
                                   release: { [weak self] in self?.releaseTemporary($0) })
        } catch let error as ReelError {
            writeFailed(error)
            return nil
        } catch {
            return nil
        }
    }

    /// Room for `count` more bytes in `tmp/`: false when the files being written would pass the
    /// cap on their own (that transfer stops caching). When they and the entries pass it together,
    /// least recently used entries are evicted on the commit queue, so the folder stays within the
    /// cap while transfers grow, not only once they end.
    func reserveTemporary(_ count: Int64) -> Bool {
        let (granted, evict) = state.withLock { state -> (Bool, Bool) in
            guard state.temporaryBytes + count <= maxBytes - state.indexBytes else { return (false, false) }
            state.temporaryBytes += count
            let over = state.index.totalBytes + state.indexBytes + state.temporaryBytes > maxBytes
            defer { if over { state.evictionQueued = true } }
            return (true, over && !state.evictionQueued)
        }
        if evict {
            commits.async { [self] in
                state.withLock { $0.evictionQueued = false }
                evictOverflow()
            }
        }
        return granted
    }

    /// Gives back temporary bytes of a file that was sealed or dropped.
    func releaseTemporary(_ count: Int64) {
        state.withLock { $0.temporaryBytes -= count }
    }

    /// Turns writes off after a failure (a full disk, a folder gone read-only), with one warning;
    /// reads go on. A resource that does not fit under the cap (`.cacheFull`) stops only itself.
    func writeFailed(_ error: ReelError) {
        if error.code == .cacheFull { return }
        let first = state.withLock { state -> Bool in
            guard state.writesEnabled else { return false }
            state.writeFailure = error.message
            return true
        }
        if first { logger.warning("cache writes stopped: \(error.message); playing on without caching") }
    }

    /// Seals a transfer's file into the cache (complete or partial) and takes the transfer out of
    /// the in-flight registry, on the commit queue so the reader that saw the end is not held up
    /// by fsync. `usedByPlayback`: a playback reader read the bytes.
    func settle(_ transfer: InFlightTransfer, writer: CacheWriter?, complete: Bool, totalLength: Int64?,
                usedByPlayback: Bool) {
        commits.async { [self] in
            var entry: CacheEntry?
            if let writer {
                entry = seal(writer, transfer: transfer, complete: complete, totalLength: totalLength,
                             usedByPlayback: usedByPlayback)
            }
            var events: [CacheEvent] = []
            let observers = state.withLock { state -> [@Sendable (CacheEvent) -> Void] in
                if state.inFlight[transfer.key] === transfer { state.inFlight[transfer.key] = nil }
                guard var entry else { return Array(state.observers.values) }
                if let current = state.index.entry(entry.key), current.isComplete, !entry.isComplete {
                    // A stopped refetch does not replace a complete copy.
                    state.pending.filesToRemove.append(entry.file)
                    return Array(state.observers.values)
                }
                if let current = state.index.entry(entry.key), current.usedByPlayback || usedByPlayback,
                   current.origin == entry.origin {
                    entry.usedByPlayback = true
                }
                if let old = state.index.insert(entry) {
                    if old.file != entry.file { state.pending.filesToRemove.append(old.file) }
                    events.append(.evicted(key: old.key, bytes: old.length, origin: old.origin,
                                           usedByPlayback: old.usedByPlayback, reason: .replaced))
                }
                state.pending.operations.append(.upsert(state.index.entry(entry.key) ?? entry))
                events.append(.stored(key: entry.key, bytes: transfer.networkBytes, origin: entry.origin,
                                      complete: entry.isComplete))
                if usedByPlayback, entry.origin == .prefetch {
                    events.append(.prefetchUsed(key: entry.key, bytes: entry.length))
                }
                return Array(state.observers.values)
            }
            transfer.markSettled()
            flush()
            evictOverflow()
            for event in events { for observer in observers { observer(event) } }
            progress.changed()
        }
    }

    /// fsync and rename `writer`'s file; the entry to index, or nil when it is not kept.
    private func seal(_ writer: CacheWriter, transfer: InFlightTransfer, complete: Bool, totalLength: Int64?,
                      usedByPlayback: Bool) -> CacheEntry? {
        let (budget, closed) = state.withLock { (maxBytes - $0.indexBytes, $0.indexClosed) }
        // After `close` no row can be written, so a sealed file would be an orphan: drop it. A
        // file whose every byte was written is kept even when another write failed since (a full
        // disk): its seal may run later than that failure on a busy machine, and no new file
        // starts after it, so what is stored is still what finished before the disk filled.
        guard writer.length > 0, writer.length <= budget, !closed else {
            writer.abandon()
            return nil
        }
        let liveText = writer.kind == .playlist || writer.kind == .media ? transfer.playlistText : nil
        guard let checksum = orAbandon(writer, { try writer.seal() }) else { return nil }
        return CacheEntry(
            key: writer.key, file: writer.name, kind: writer.kind, length: writer.length,
            totalLength: complete ? writer.length : totalLength, isComplete: complete, checksum: checksum,
            isLive: liveText.map(PlaylistLiveness.isLive) ?? false, origin: transfer.origin,
            usedByPlayback: usedByPlayback || transfer.origin == .playback, lastAccess: 0)
    }

    /// `body`'s result; when it throws, `writer` is abandoned, writes stop with one warning
    /// (`writeFailed`) and the result is nil.
    func orAbandon<T>(_ writer: CacheWriter, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            writer.abandon()
            writeFailed(error as? ReelError ?? ReelError(.cacheIO, "writing the cache file of '\(writer.key)' failed: \(error)"))
            return nil
        }
    }

    /// Stores `bytes` as the complete entry for `spec` (a resource Reel has whole already, an
    /// import). `durable: false` skips the fsync (bulk imports, benchmarks: the rename stays
    /// atomic and the checksum still catches a torn file) and defers the index write to the next
    /// batch. Returns the entry, or nil when the cache is off or the bytes do not fit. Blocking.
    @discardableResult
    public func store(_ bytes: [UInt8], for spec: DataSpec, origin: CacheOrigin = .playback,
                      durable: Bool = true) -> CacheEntry? {
        guard let writer = makeWriter(key: spec.cacheKey, kind: spec.kind) else { return nil }
        guard orAbandon(writer, { try writer.write(bytes) }) != nil else { return nil }
        let (budget, writable) = state.withLock { (maxBytes - $0.indexBytes, $0.writesEnabled) }
        guard writer.length <= budget, writable else {
            writer.abandon()
            return nil
        }
        guard let checksum = orAbandon(writer, { durable ? try writer.seal() : try writer.sealWithoutSync() }) else {
            return nil
        }
        let text = writer.capturedText
        let entry = CacheEntry(
            key: writer.key, file: writer.name, kind: writer.kind, length: writer.length, totalLength: writer.length,
            isComplete: true, checksum: checksum, isLive: text.map(PlaylistLiveness.isLive) ?? false, origin: origin,
            usedByPlayback: origin == .playback, lastAccess: 0)
        let (stored, flushDue) = state.withLock { state -> (CacheEntry, Bool) in
            if let old = state.index.insert(entry), old.file != entry.file { state.pending.filesToRemove.append(old.file) }
            let stored = state.index.entry(entry.key) ?? entry
            state.pending.operations.append(.upsert(stored))
            return (stored, durable || state.pending.operations.count >= Self.touchBatch)
        }
        if flushDue { flush() }
        evictOverflow()
        return stored
    }

    // MARK: Bookkeeping

    /// Counts one read served by a data source.
    func record(hit: Bool, cacheBytes: Int64, networkBytes: Int64) {
        state.withLock { state in
            if hit { state.counters.hits += 1 } else { state.counters.misses += 1 }
            state.counters.hitBytes += cacheBytes
            state.counters.missBytes += networkBytes
            state.countersDirty = true
        }
    }

    /// Playback read a prefetched entry: mark it used (once) and tell the observers.
    func markUsedByPlayback(_ entry: CacheEntry) {
        let observers = state.withLock { state -> [@Sendable (CacheEvent) -> Void]? in
            guard let current = state.index.entry(entry.key), !current.usedByPlayback, current.file == entry.file,
                  let updated = state.index.update(entry.key, { $0.usedByPlayback = true }) else { return nil }
            state.pending.operations.append(.upsert(updated))
            return Array(state.observers.values)
        }
        guard let observers else { return }
        for observer in observers { observer(.prefetchUsed(key: entry.key, bytes: entry.length)) }
    }

    /// Removes `entry` if the index still holds this version of it.
    func evict(_ entry: CacheEntry, reason: CacheEvent.EvictionReason) {
        let observers = state.withLock { state -> [@Sendable (CacheEvent) -> Void]? in
            guard state.index.entry(entry.key)?.file == entry.file else { return nil }
            state.index.remove(entry.key)
            state.pending.operations.append(.delete(key: entry.key))
            state.pending.filesToRemove.append(entry.file)
            return Array(state.observers.values)
        }
        guard let observers else { return }
        commits.async { [self] in flush() }
        let event = CacheEvent.evicted(key: entry.key, bytes: entry.length, origin: entry.origin,
                                       usedByPlayback: entry.usedByPlayback, reason: reason)
        for observer in observers { observer(event) }
    }

    /// Evicts least recently used entries until content, index and files being written fit in
    /// `maxBytes` (again when
    /// writing the deletions grew the index files past the room measured before).
    func evictOverflow() {
        for _ in 0..<4 where evictOverflowOnce() {}
    }

    /// One round of `evictOverflow`; true when it evicted something.
    private func evictOverflowOnce() -> Bool {
        let (events, observers) = state.withLock { state -> ([CacheEvent], [@Sendable (CacheEvent) -> Void]) in
            var events: [CacheEvent] = []
            while state.index.totalBytes + state.indexBytes + state.temporaryBytes > maxBytes,
                  let victim = state.index.leastRecentlyUsed {
                state.index.remove(victim.key)
                state.pending.operations.append(.delete(key: victim.key))
                state.pending.filesToRemove.append(victim.file)
                events.append(.evicted(key: victim.key, bytes: victim.length, origin: victim.origin,
                                       usedByPlayback: victim.usedByPlayback, reason: .capacity))
            }
            return (events, Array(state.observers.values))
        }
        guard !events.isEmpty else { return false }
        flush()
        for event in events { for observer in observers { observer(event) } }
        return true
    }

    /// Writes the pending index changes in one transaction, then removes the files of deleted
    /// entries (a row goes before its file, so a crash never leaves a row without a file). When
    /// the transaction fails (a full disk), writes stop, and the entries whose rows it would have
    /// added are dropped with their files: nothing is kept that the index does not name.
    func flush() {
        let dropped = store.withLock { store -> [CacheEntry] in
            guard let store else { return [] }
            let batch = state.withLock { state -> CacheIndexBatch in
                var batch = state.pending
                state.pending = CacheIndexBatch()
                if state.countersDirty {
                    batch.counters = state.counters
                    state.countersDirty = false
                }
                return batch
            }
            var dropped: [CacheEntry] = []
            // A read-only index keeps its rows: what changed stays in memory.
            if !store.isReadOnly {
                do {
                    try store.apply(batch)
                } catch let error as ReelError {
                    writeFailed(error)
                    dropped = dropUnindexed(batch, store: store)
                } catch {}
            }
            for file in batch.filesToRemove + dropped.map(\.file) { CacheFiles.remove(CacheFiles.contentPath(path, file)) }
            let footprint = store.footprintBytes
            state.withLock { $0.indexBytes = footprint }
            return dropped
        }
        guard !dropped.isEmpty else { return }
        let observers = state.withLock { Array($0.observers.values) }
        for entry in dropped {
            let event = CacheEvent.evicted(key: entry.key, bytes: entry.length, origin: entry.origin,
                                           usedByPlayback: entry.usedByPlayback, reason: .unindexed)
            for observer in observers { observer(event) }
        }
    }

    /// The entries of a failed batch whose rows the index does not hold (new versions, not
    /// updates of a row already there), taken out of the in-memory index. Under the `store` lock.
    private func dropUnindexed(_ batch: CacheIndexBatch, store: CacheIndexStore) -> [CacheEntry] {
        var dropped: [CacheEntry] = []
        for case .upsert(let entry) in batch.operations {
            guard (try? store.containsRow(key: entry.key, file: entry.file)) != true else { continue }
            let removed = state.withLock { state -> CacheEntry? in
                guard state.index.entry(entry.key)?.file == entry.file else { return nil }
                return state.index.remove(entry.key)
            }
            if let removed { dropped.append(removed) }
        }
        return dropped
    }

    // MARK: Observers

    /// Calls `handler` for every `CacheEvent` from now on; returns a token for `removeObserver`.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (CacheEvent) -> Void) -> Int {
        state.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = handler
            return state.nextObserver
        }
    }

    public func removeObserver(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    /// Tells every observer about `event`, outside the lock.
    func notify(_ event: CacheEvent) {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer(event) }
    }

    /// Blocks until every finished transfer is sealed and indexed and the index is written.
    @available(*, noasync, message: "blocks until the commit queue drains")
    public func waitForPendingWrites() {
        commits.waitForAll()
        flush()
    }

    /// Blocks until the transfers of `keys` that have ended are settled and every seal and index
    /// write queued before is done, so `holdsDurably` is final for what a reader read to its end;
    /// throws `.cancelled` when `cancellation` fires first. A transfer still streaming (a new one,
    /// which a paused player may hold for long) is not waited for.
    @available(*, noasync, message: "blocks until the transfers settle")
    func waitUntilSettled(_ keys: [String], cancellation: Cancellation) throws {
        for key in keys {
            guard let transfer = state.withLock({ $0.inFlight[key] }), transfer.hasEnded else { continue }
            let wake = cancellation.onCancel { transfer.wake() }
            defer { cancellation.removeHandler(wake) }
            try transfer.waitUntilSettled(cancellation: cancellation)
        }
        commits.waitForAll()
    }

    /// True when `key` is cached whole and its row is in the index on disk, where a later
    /// process finds it. After a failed write the index is asked, since rows may not have been written.
    func holdsDurably(_ key: String) -> Bool {
        guard let entry = peek(key), entry.isComplete else { return false }
        guard writeFailure != nil else { return true }
        return store.withLock { store in (try? store?.containsRow(key: key, file: entry.file)) ?? false }
    }

    /// Writes what is pending, marks the cache closed cleanly and releases the folder. Blocking;
    /// safe to call more than once. Transfers still open are dropped (their files are temporary).
    public func close() {
        close(drain: true)
    }

    private func close(drain: Bool) {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        if drain { commits.waitForAll() }
        state.withLock { $0.indexClosed = true }
        flush()
        store.withLock { store in
            if let store {
                if !store.isReadOnly {
                    try? store.setOpen(false)
                    store.checkpoint()
                }
                store.close()
            }
            store = nil
        }
        if lockDescriptor >= 0 { Glibc.close(lockDescriptor) }
        commits.shutdown()
    }
}
