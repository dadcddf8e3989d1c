import Foundation
import ReelCore
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
                counters: state.counters, enabled: isEnabled, disabledReason: disabledReason)
        }
    }

    /// Re-reads every entry and checks its length and checksum; also counts content files no row
    /// names. With `repair`, bad entries and orphan files are removed. Blocking.
    public func verify(repair: Bool) -> CacheVerifyReport {
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

    /// Removes every entry and resets the counters. Blocking.
    public func clear() {
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
        flush()
        for file in CacheFiles.contentFiles(path) { CacheFiles.remove(file.path) }
        for entry in removed {
            let event = CacheEvent.evicted(key: entry.key, bytes: entry.length, origin: entry.origin,
                                           usedByPlayback: entry.usedByPlayback, reason: .cleared)
            for observer in observers { observer(event) }
        }
    }
}
