import Foundation
import ReelCore
import ReelStore
import Synchronization

/// `reel cache stats|verify|clear`: what the cache holds, a full re-check, emptying it.
extension Cache {
    /// Entries, bytes, partial entries and the hit counters.
    public func statistics() -> CacheStatistics {
        state.withLock { state in
            let entries = state.index.entriesInLRUOrder
            return CacheStatistics(
                directory: path, maxBytes: maxBytes, entries: entries.count, bytes: state.index.totalBytes,
                indexBytes: state.indexBytes, partialEntries: state.index.partialCount,
                liveEntries: entries.filter(\.isLive).count,
                prefetchUnreadBytes: entries.filter { $0.origin == .prefetch && !$0.usedByPlayback }
                    .reduce(0) { $0 + $1.length },
                counters: state.counters, enabled: isEnabled, disabledReason: disabledReason,
                readOnlyReason: readOnlyReason)
        }
    }

    /// Re-reads every entry and checks its length and checksum; also counts content files no row
    /// names. With `repair`, bad entries and orphan files are removed (not in a read-only cache:
    /// the report then says `repaired: false`). Blocking.
    public func verify(repair: Bool) -> CacheVerifyReport {
        let repair = repair && readOnlyReason == nil
        waitForPendingWrites()
        var report = CacheVerifyReport(directory: path, checked: 0, bytes: 0, bad: [], orphanFiles: 0, removed: 0,
                                       repaired: repair)
        for entry in entries {
            report.checked += 1
            report.bytes += entry.length
            let file = CacheFiles.contentPath(path, entry.file)
            var reason: String?
            do {
                let bytes = try CacheFiles.readWhole(file, expected: entry.length)
                if XXHash64.hash(bytes) != entry.checksum { reason = "checksum mismatch" }
            } catch let error as ReelError {
                reason = error.message
            } catch {
                reason = "\(error)"
            }
            guard let reason else { continue }
            report.bad.append(.init(key: entry.key, file: "data/\(entry.file.prefix(2))/\(entry.file)", reason: reason))
            if repair {
                evict(entry, reason: .corrupt)
                report.removed += 1
            }
        }
        waitForPendingWrites()  // the files of entries removed above are gone before orphans are counted
        let named = Set(entries.map(\.file))
        let busy = state.withLock { Set($0.inFlight.keys) }
        for file in CacheFiles.contentFiles(path) where !named.contains(file.name) && busy.isEmpty {
            report.orphanFiles += 1
            if repair {
                CacheFiles.remove(file.path)
                report.removed += 1
            }
        }
        waitForPendingWrites()
        return report
    }

    /// Removes every entry and resets the counters. Blocking. In a cache that cannot write its
    /// index (opened read-only on a full disk, or a write failed) the content files go first,
    /// which frees the room, then the index is emptied, or removed when it still cannot be
    /// written (the next open starts a new one). Throws `.cacheIO` when files cannot be removed
    /// (a read-only folder).
    public func clear() throws {
        waitForPendingWrites()
        let (removed, observers) = state.withLock { state -> ([CacheEntry], [@Sendable (CacheEvent) -> Void]) in
            let removed = state.index.entriesInLRUOrder
            state.index.removeAll()
            state.pending = CacheIndexBatch()
            state.pending.operations = [.deleteAll]
            state.counters = CacheCounters()
            state.countersDirty = true
            return (removed, Array(state.observers.values))
        }
        let writable = writeFailure == nil
        if writable { flush() }
        for file in CacheFiles.contentFiles(path) {
            do {
                try CacheFiles.removeOrThrow(file.path)
            } catch let error as ReelError {
                throw ReelError(.cacheIO, "cannot clear the cache '\(path)': \(error.message)")
            }
        }
        if !writable || writeFailure != nil { try resetIndex() }
        for entry in removed {
            let event = CacheEvent.evicted(key: entry.key, bytes: entry.length, origin: entry.origin,
                                           usedByPlayback: entry.usedByPlayback, reason: .cleared)
            for observer in observers { observer(event) }
        }
    }

    /// Empties the index on disk through a writable connection of its own (the content files
    /// are gone, so there may be room again), else removes its files. The cache keeps no
    /// connection afterwards: it stays empty and stores nothing for the rest of the process.
    private func resetIndex() throws {
        let indexPath = "\(path)/\(CacheFiles.indexName)"
        try store.withLock { store in
            store?.close()
            store = nil
            do {
                let fresh = try CacheIndexStore(path: indexPath)
                defer { fresh.close() }
                var batch = CacheIndexBatch()
                batch.operations = [.deleteAll]
                batch.counters = CacheCounters()
                try fresh.apply(batch)
                try fresh.setOpen(false)
                fresh.checkpoint()
            } catch {
                do {
                    for suffix in ["-wal", "-shm", ""] { try CacheFiles.removeOrThrow(indexPath + suffix) }
                } catch let error as ReelError {
                    throw ReelError(.cacheIO, "cannot clear the cache '\(path)': \(error.message)")
                }
            }
        }
        state.withLock { state in
            state.pending = CacheIndexBatch()
            state.countersDirty = false
            state.indexBytes = CacheIndexStore.footprint(indexPath)
        }
    }
}
