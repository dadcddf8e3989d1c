import Foundation
import Logging
import ReelCore

#if canImport(Glibc)
import Glibc
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
    /// empty one (and the orphaned content files removed) after a warning.
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
        let lockDescriptor = try acquireLock(path)
        do {
            for name in CacheFiles.list("\(path)/tmp") where CacheFiles.isTemporaryName(name) {
                CacheFiles.remove("\(path)/tmp/\(name)")
            }
            let indexPath = "\(path)/\(CacheFiles.indexName)"
            var store: CacheIndexStore
            var clean: Bool
            var loaded: (entries: [CacheEntry], bad: [String])
            var counters: CacheCounters
            do {
                store = try CacheIndexStore(path: indexPath)
                clean = try store.wasClosedCleanly()
                loaded = try store.loadEntries()
                counters = try store.loadCounters()
            } catch let error as ReelError where error.code == .cacheCorrupt {
                logger.warning("cache index '\(indexPath)' is corrupt (\(error.message)); starting with an empty cache")
                for suffix in ["", "-wal", "-shm"] { CacheFiles.remove(indexPath + suffix) }
                store = try CacheIndexStore(path: indexPath)
                clean = false
                loaded = ([], [])
                counters = CacheCounters()
            }
            var state = State()
            state.index = CacheIndex(capacity: loaded.entries.count)
            state.counters = counters
            for key in loaded.bad { state.pending.operations.append(.delete(key: key)) }
            var present: Set<String>?
            if !clean {
                // The last process died without closing: sweep files no row names (a crash
                // between rename and row) and rows whose file is gone.
                let files = CacheFiles.contentFiles(path)
                let named = Set(loaded.entries.map(\.file))
                for file in files where !named.contains(file.name) { CacheFiles.remove(file.path) }
                present = Set(files.map(\.name))
            }
            var generation: Int64 = 0
            for entry in loaded.entries {
                if let present, !present.contains(entry.file) {
                    state.pending.operations.append(.delete(key: entry.key))
                    continue
                }
                state.index.insert(entry, keepAccessTime: true)
                generation = max(generation, CacheFiles.generation(of: entry.file) ?? 0)
            }
            state.nextGeneration = generation + 1
            try store.setOpen(true)
            try store.apply(state.pending)
            state.pending = CacheIndexBatch()
            state.indexBytes = store.footprintBytes
            let cache = Cache(directory: directory, maxBytes: maxBytes, disabledReason: nil, store: store,
                              state: state, lockDescriptor: lockDescriptor, logger: logger, fileSystem: fileSystem)
            cache.evictOverflow()
            return cache
        } catch {
            Glibc.close(lockDescriptor)
            throw error
        }
    }

    /// A cache that holds nothing and writes nothing.
    public static func disabled(directory: URL, maxBytes: Int64, reason: String,
                                logger: Logger = ReelLog.cache) -> Cache {
        var state = State()
        state.writesEnabled = false
        return Cache(directory: directory, maxBytes: maxBytes, disabledReason: reason, store: nil, state: state,
                     lockDescriptor: -1, logger: logger)
    }

    /// One process uses a cache folder at a time: an exclusive `flock` on `<dir>/lock`, which
    /// the kernel releases when the process dies (SIGKILL included).
    private static func acquireLock(_ path: String) throws -> Int32 {
        let lockPath = "\(path)/\(CacheFiles.lockName)"
        let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ReelError(.cacheIO, "cache folder '\(path)' is not usable: cannot open '\(lockPath)': \(CacheFiles.reason(errno))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 31, 0) }
            let pid = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            Glibc.close(fd)
            throw ReelError(.cacheIO, "cache folder '\(path)' is in use by another reel process\(pid.isEmpty ? "" : " (pid \(pid))")")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return fd
    }
}
