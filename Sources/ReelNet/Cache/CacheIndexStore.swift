import Foundation
import GRDB
import ReelCore
import ReelManifest

/// The durable mirror of the cache index: one SQLite database (GRDB) in WAL mode with
/// `synchronous = NORMAL`, so a committed row survives a crash or SIGKILL of the process and a
/// write costs no fsync of its own. Schema (version 1, `PRAGMA user_version`):
///
///     entry(key TEXT PRIMARY KEY, file TEXT, kind TEXT, length INTEGER, totalLength INTEGER NULL,
///           complete INTEGER, checksum INTEGER, live INTEGER, origin TEXT, used INTEGER,
///           lastAccess INTEGER)
///     counter(name TEXT PRIMARY KEY, value INTEGER)      hits, misses, hitBytes, missBytes
///     meta(name TEXT PRIMARY KEY, value TEXT)            open: "1" while a process uses the cache;
///                                                        bandwidth.<network>: a remembered estimate in kbps
///
/// Blocking; used only from the cache's callers' threads under the cache's index lock.
final class CacheIndexStore {
    static let schemaVersion = 1
    let path: String
    private let queue: DatabaseQueue

    /// Opens (creating when missing) the index at `path`. Throws `ReelError(.cacheCorrupt)` when
    /// the file is not a usable index, `.cacheIO` when it cannot be opened.
    init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.label = "reel.cache.index"
        configuration.prepareDatabase { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 64")
            try db.execute(sql: "PRAGMA journal_size_limit = 262144")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.write { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                if version == 0 && tables.isEmpty {
                    try Self.createSchema(db)
                } else if version != Self.schemaVersion
                            || !Set(tables).isSuperset(of: ["entry", "counter", "meta"]) {
                    throw ReelError(.cacheCorrupt, "cache index '\(path)' has an unknown layout (version \(version))")
                }
            }
        } catch let error as ReelError {
            throw error
        } catch let error as DatabaseError {
            let code: ReelError.Code = [.SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_FORMAT].contains(error.resultCode)
                ? .cacheCorrupt : .cacheIO
            throw ReelError(code, "cannot open cache index '\(path)': \(error.message ?? "\(error.resultCode)")")
        } catch {
            throw ReelError(.cacheIO, "cannot open cache index '\(path)': \(error)")
        }
    }

    private static func createSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE entry (
                key TEXT PRIMARY KEY NOT NULL, file TEXT NOT NULL, kind TEXT NOT NULL,
                length INTEGER NOT NULL, totalLength INTEGER, complete INTEGER NOT NULL,
                checksum INTEGER NOT NULL, live INTEGER NOT NULL, origin TEXT NOT NULL,
                used INTEGER NOT NULL, lastAccess INTEGER NOT NULL);
            CREATE TABLE counter (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
            CREATE TABLE meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    /// Every entry, least recently used first. Rows that do not decode are skipped and returned
    /// by key so the caller can drop them.
    func loadEntries() throws -> (entries: [CacheEntry], bad: [String]) {
        try wrap("reading") {
            try queue.read { db in
                var entries: [CacheEntry] = []
                entries.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0)
                var bad: [String] = []
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT key, file, kind, length, totalLength, complete, checksum, live, origin, used, lastAccess
                    FROM entry
                    """)
                while let row = try rows.next() {
                    let key: String = row[0]
                    let file: String = row[1]
                    guard let kind = ResourceKind(rawValue: row[2]), let origin = CacheOrigin(rawValue: row[8]),
                          CacheFiles.isContentName(file) else {
                        bad.append(key)
                        continue
                    }
                    let length: Int64 = row[3]
                    let total: Int64? = row[4]
                    let checksum: Int64 = row[6]
                    entries.append(CacheEntry(
                        key: key, file: file, kind: kind, length: length, totalLength: total, isComplete: row[5],
                        checksum: UInt64(bitPattern: checksum), isLive: row[7], origin: origin, usedByPlayback: row[9],
                        lastAccess: row[10]))
                }
                // Sorting here is cheaper than SQLite's sorter, which copies every whole row.
                entries.sort { $0.lastAccess < $1.lastAccess }
                return (entries, bad)
            }
        }
    }

    func loadCounters() throws -> CacheCounters {
        try wrap("reading") {
            try queue.read { db in
                var counters = CacheCounters()
                for row in try Row.fetchAll(db, sql: "SELECT name, value FROM counter") {
                    let value: Int64 = row[1]
                    switch row[0] as String {
                    case "hits": counters.hits = value
                    case "misses": counters.misses = value
                    case "hitBytes": counters.hitBytes = value
                    case "missBytes": counters.missBytes = value
                    default: break
                    }
                }
                return counters
            }
        }
    }

    /// Whether the last process that used the cache closed it (false after a crash or SIGKILL).
    func wasClosedCleanly() throws -> Bool {
        try wrap("reading") {
            try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'open'") != "1" }
        }
    }

    func setOpen(_ open: Bool) throws {
        try wrap("writing") {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (name, value) VALUES ('open', ?)", arguments: [open ? "1" : "0"])
            }
        }
    }

    /// A value of the `meta` table, or nil.
    func meta(_ name: String) throws -> String? {
        try wrap("reading") {
            try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = ?", arguments: [name]) }
        }
    }

    /// Sets a value of the `meta` table, committed at once.
    func setMeta(_ name: String, _ value: String) throws {
        try wrap("writing") {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", arguments: [name, value])
            }
        }
    }

    /// Applies a batch in one transaction: access times, then upserts and deletes in order, then counters.
    func apply(_ batch: CacheIndexBatch) throws {
        guard !batch.isEmpty else { return }
        try wrap("writing") {
            try queue.write { db in
                if !batch.touches.isEmpty {
                    let touch = try db.cachedStatement(sql: "UPDATE entry SET lastAccess = ? WHERE key = ?")
                    for (key, access) in batch.touches { try touch.execute(arguments: [access, key]) }
                }
                for operation in batch.operations {
                    switch operation {
                    case .upsert(let entry):
                        let upsert = try db.cachedStatement(sql: """
                            INSERT OR REPLACE INTO entry
                            (key, file, kind, length, totalLength, complete, checksum, live, origin, used, lastAccess)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """)
                        try upsert.execute(arguments: [
                            entry.key, entry.file, entry.kind.rawValue, entry.length, entry.totalLength, entry.isComplete,
                            Int64(bitPattern: entry.checksum), entry.isLive, entry.origin.rawValue, entry.usedByPlayback,
                            entry.lastAccess,
                        ])
                    case .delete(let key):
                        try db.cachedStatement(sql: "DELETE FROM entry WHERE key = ?").execute(arguments: [key])
                    case .deleteAll:
                        try db.execute(sql: "DELETE FROM entry")
                    }
                }
                if let counters = batch.counters {
                    let set = try db.cachedStatement(sql: "INSERT OR REPLACE INTO counter (name, value) VALUES (?, ?)")
                    for (name, value) in [("hits", counters.hits), ("misses", counters.misses),
                                          ("hitBytes", counters.hitBytes), ("missBytes", counters.missBytes)] {
                        try set.execute(arguments: [name, value])
                    }
                }
            }
        }
    }

    /// Folds the write-ahead log into the database file and truncates it.
    func checkpoint() {
        _ = try? queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Bytes of the database and its WAL and shared-memory files on disk.
    var footprintBytes: Int64 {
        [path, path + "-wal", path + "-shm"].reduce(0) { $0 + CacheFiles.size(of: $1) }
    }

    func close() {
        try? queue.close()
    }

    private func wrap<T>(_ action: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ReelError {
            throw error
        } catch let error as DatabaseError {
            let code: ReelError.Code = [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) ? .cacheCorrupt : .cacheIO
            throw ReelError(code, "\(action) cache index '\(path)' failed: \(error.message ?? "\(error.resultCode)")")
        } catch {
            throw ReelError(.cacheIO, "\(action) cache index '\(path)' failed: \(error)")
        }
    }
}

/// Index changes waiting to be written, in the order the in-memory index made them.
struct CacheIndexBatch: Sendable {
    enum Operation: Sendable {
        case upsert(CacheEntry)
        case delete(key: String)
        case deleteAll
    }

    var touches: [String: Int64] = [:]
    var operations: [Operation] = []
    var counters: CacheCounters?
    /// Content files to unlink once the deletes are committed.
    var filesToRemove: [String] = []

    var isEmpty: Bool { touches.isEmpty && operations.isEmpty && counters == nil }
}
