import Foundation
import Logging
import ReelCore

#if canImport(Glibc)
import Glibc
import ReelStore
#endif

/// Opening a cache folder: claim it (see `CacheFolder`), lock it, remove Reel's files from `tmp/`, load the index (replacing a corrupt one),
/// sweep what a crash left, and evict down to the cap.
extension Cache {
    /// Opens the cache in `directory`, or returns a disabled cache (every read a miss, nothing
    /// written) after one warning (to `logger`) when the folder cannot be used: playback goes on without it.
    /// Blocking (file system, SQLite): call it from a dedicated thread.
    public static func open(directory: URL, maxBytes: Int64,
                            logger: Logger = ReelLog.cache) -> Cache {
        do {
            return try openOrThrow(directory: directory, maxBytes: maxBytes, logger: logger)
        } catch let error as ReelError {
            logger.warning("cache disabled: \(error.message)")
            return disabled(directory: directory, maxBytes: maxBytes, reason: error.message, logger: logger)
        } catch {
            logger.warning("cache disabled: \(error)")
            return disabled(directory: directory, maxBytes: maxBytes, reason: "\(error)", logger: logger)
        }
    }

    /// Opens the cache in `directory`, throwing a `ReelError` (`.cacheIO`) when the folder cannot
    /// be used or another process holds it. A corrupt index is not an error: it is replaced by an
    /// empty one (and the orphaned content files removed) after a warning; damaged rows are
    /// dropped after one warning. A folder that can be read but not written (a full disk, a
    /// read-only mount) opens read-only after one warning: what it holds is served, nothing is
    /// stored (`writeFailure` says why) and `clear` still empties it where files can be removed.
    public static func openOrThrow(directory: URL, maxBytes: Int64, logger: Logger = ReelLog.cache,
                                   fileSystem: any CacheFileSystem = .posix) throws -> Cache {
        let path = directory.path
        try CacheFolder.claim(path)
        for folder in ["\(path)/data", "\(path)/tmp"] {
            do {
                try CacheFiles.makeDirectory(folder)
            } catch let error as ReelError {
                throw ReelError(.cacheIO, "cache folder '\(path)' is not usable: \(error.message)")
            }
        }
        let lock = try acquireLock(path)
        do {
            for name in CacheFiles.list("\(path)/tmp") where CacheFiles.isTemporaryName(name) {
                CacheFiles.remove("\(path)/tmp/\(name)")
            }
            let indexPath = "\(path)/\(CacheFiles.indexName)"
            var readOnly = lock.problem
            var loaded: LoadedIndex?
            if readOnly == nil {
                do {
                    loaded = try loadWritable(indexPath, logger: logger)
                } catch let error as ReelError where error.code == .cacheIO {
                    readOnly = CacheFiles.writeHint(path).map { ReelError(.cacheIO, "\(error.message) (\($0))") } ?? error
                }
            }
            if let problem = readOnly {
                do {
                    loaded = try LoadedIndex(try CacheIndexStore(readOnlyAt: indexPath))
                } catch {
                    throw problem
                }
                logger.warning("""
                    cache '\(path)' is read-only: \(problem.message); what it holds is served, nothing new is stored
                    """)
            }
            guard let loaded else { throw ReelError(.internalFailure, "cache index '\(indexPath)' was not loaded") }
            let store = loaded.store
            if let damage = loaded.damageReport(indexPath, repairing: readOnly == nil) { logger.warning("\(damage)") }
            var state = State()
            state.index = CacheIndex(capacity: loaded.contents.entries.count)
            state.counters = loaded.counters
            state.countersDirty = !loaded.counterDamage.isEmpty
            for row in loaded.contents.dropped { state.pending.operations.append(.deleteRow(row.rowid)) }
            var present: Set<String>?
            if !loaded.clean || !loaded.contents.dropped.isEmpty {
                // The last process died without closing, or rows were dropped: sweep files no row
                // names (a crash between rename and row, a dropped row's file) and rows whose file is gone.
                let files = CacheFiles.contentFiles(path)
                let named = Set(loaded.contents.entries.map(\.file))
                if readOnly == nil {
                    for file in files where !named.contains(file.name) { CacheFiles.remove(file.path) }
                }
                present = Set(files.map(\.name))
            }
            var generation: Int64 = 0
            for entry in loaded.contents.entries {
                if let present, !present.contains(entry.file) {
                    state.pending.operations.append(.delete(key: entry.key))
                    continue
                }
                state.index.insert(entry, keepAccessTime: true)
                if loaded.contents.renumbered { state.pending.touches[entry.key] = entry.lastAccess }
                generation = max(generation, CacheFiles.generation(of: entry.file) ?? 0)
            }
            state.nextGeneration = generation + 1
            if let readOnly {
                state.writeFailure = readOnly.message
            } else {
                do {
                    try store.apply(state.pending)
                } catch let error as ReelError {
                    state.writeFailure = error.message
                    logger.warning("cache writes stopped: \(error.message); playing on without caching")
                }
            }
            state.pending = CacheIndexBatch()
            state.countersDirty = state.countersDirty && readOnly == nil
            state.indexBytes = store.footprintBytes
            let cache = Cache(directory: directory, maxBytes: maxBytes, disabledReason: nil, readOnlyReason: readOnly?.message,
                              store: store, state: state, lockDescriptor: lock.descriptor, logger: logger,
                              fileSystem: fileSystem)
            if readOnly == nil { cache.evictOverflow() }
            return cache
        } catch {
            if lock.descriptor >= 0 { Glibc.close(lock.descriptor) }
            throw error
        }
    }

    /// The index opened for writing and marked open, its rows read; a corrupt one replaced by an
    /// empty one after a warning. Throws `.cacheIO` when the folder cannot be written.
    private static func loadWritable(_ indexPath: String, logger: Logger) throws -> LoadedIndex {
        var store: CacheIndexStore?
        do {
            let opened = try CacheIndexStore(path: indexPath)
            store = opened
            let loaded = try LoadedIndex(opened)
            // The first write: a full disk or a read-only folder shows here, before anything changed.
            try opened.setOpen(true)
            return loaded
        } catch let error as ReelError where error.code == .cacheCorrupt {
            store?.close()
            logger.warning("cache index '\(indexPath)' is corrupt (\(error.message)); starting with an empty cache")
            for suffix in ["", "-wal", "-shm"] { CacheFiles.remove(indexPath + suffix) }
            let fresh = try CacheIndexStore(path: indexPath)
            try fresh.setOpen(true)
            return LoadedIndex(store: fresh, clean: false, contents: CacheIndexContents(rows: []), counters: CacheCounters(),
                               counterDamage: [])
        } catch {
            store?.close()
            throw error
        }
    }

    /// A cache that holds nothing and writes nothing.
    /// A cache that holds nothing and writes nothing.
    public static func disabled(directory: URL, maxBytes: Int64, reason: String,
                                logger: Logger = ReelLog.cache) -> Cache {
        var state = State()
        state.writeFailure = reason
        return Cache(directory: directory, maxBytes: maxBytes, disabledReason: reason, readOnlyReason: nil, store: nil,
                     state: state, lockDescriptor: -1, logger: logger)
    }

    /// One process uses a cache folder at a time: an exclusive `flock` on `<dir>/lock`, which
    /// the kernel releases when the process dies (SIGKILL included). A lock file that cannot be
    /// opened for writing (a read-only folder) is locked through a read-only descriptor, or not at
    /// all when it cannot be created (no writer can use such a folder either); `problem` then
    /// says why the cache must not write.
    private static func acquireLock(_ path: String) throws -> (descriptor: Int32, problem: ReelError?) {
        let lockPath = "\(path)/\(CacheFiles.lockName)"
        var problem: ReelError?
        var fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 {
            let code = errno
            guard CacheFiles.meansNotWritable(code) else {
                throw ReelError(.cacheIO, "cache folder '\(path)' is not usable: cannot open '\(lockPath)': \(CacheFiles.reason(code))")
            }
            problem = CacheFiles.error("open", lockPath, code)
            fd = Glibc.open(lockPath, O_RDONLY | O_CLOEXEC)
            if fd < 0 { return (-1, problem) }
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 31, 0) }
            let pid = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            Glibc.close(fd)
            throw ReelError(.cacheIO, "cache folder '\(path)' is in use by another reel process\(pid.isEmpty ? "" : " (pid \(pid))")")
        }
        if problem == nil {
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return (fd, problem)
    }
}

/// The index as opening found it: the store, whether the last process closed it, and its rows decoded.
struct LoadedIndex {
    var store: CacheIndexStore
    var clean: Bool
    var contents: CacheIndexContents
    var counters: CacheCounters
    var counterDamage: [CacheIndexRow.Damage]

    init(store: CacheIndexStore, clean: Bool, contents: CacheIndexContents, counters: CacheCounters,
         counterDamage: [CacheIndexRow.Damage]) {
        self.store = store
        self.clean = clean
        self.contents = contents
        self.counters = counters
        self.counterDamage = counterDamage
    }

    /// Reads and decodes every row of `store`.
    init(_ store: CacheIndexStore) throws {
        let clean = try store.wasClosedCleanly()
        let contents = CacheIndexContents(rows: try store.loadEntryRows())
        let (counters, damage) = CacheIndexRow.counters(try store.loadCounterRows())
        self.init(store: store, clean: clean, contents: contents, counters: counters, counterDamage: damage)
    }

    /// The one warning for a damaged index (rows dropped, counters reset, access times
    /// renumbered), or nil when nothing was damaged.
    func damageReport(_ indexPath: String, repairing: Bool) -> String? {
        var parts: [String] = []
        let dropped = contents.dropped
        if !dropped.isEmpty {
            let shown = dropped.prefix(3).map { row in
                "row \(row.rowid)\(row.key.map { " '\(SQLiteValue.printable($0))'" } ?? ""): \(row.damage)"
            }
            parts.append("\(repairing ? "dropped" : "skipped") \(dropped.count) of \(dropped.count + contents.entries.count) entries "
                         + "(\(shown.joined(separator: "; "))\(dropped.count > 3 ? "; ..." : ""))")
        }
        if !counterDamage.isEmpty {
            let count = counterDamage.count == 1 ? "1 counter" : "\(counterDamage.count) counters"
            parts.append("reset \(count) to 0 (\(counterDamage.map(\.description).joined(separator: "; ")))")
        }
        if contents.renumbered { parts.append("renumbered the access times (out of range)") }
        guard !parts.isEmpty else { return nil }
        let outcome = repairing
            ? (dropped.isEmpty ? "" : "; the files of dropped entries are removed")
            : "; the folder cannot be written, so the index stays as it is"
        return "cache index '\(indexPath)' was damaged: \(parts.joined(separator: ", "))\(outcome)"
    }
}
