import Foundation
import GRDB
import ReelCore
import ReelManifest
import ReelStore

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
    /// Opened for reading only (`init(readOnlyAt:)`): every write throws.
    let isReadOnly: Bool
    private let queue: DatabaseQueue

    /// Opens (creating when missing) the index at `path`. Throws `ReelError(.cacheCorrupt)` when
    /// the file is not a usable index, `.cacheIO` when it cannot be opened.
    init(path: String) throws {
        self.path = path
        isReadOnly = false
        var configuration = Configuration()
        configuration.label = "reel.cache.index"
        configuration.prepareDatabase { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 64")
            try db.execute(sql: "PRAGMA journal_size_limit = 262144")
        }
        queue = try Self.wrapOpen(path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.write { db in
                let version = try Self.userVersion(db)
                let tables = try Self.tables(db)
                if version == 0 && tables.isEmpty {
                    try Self.createSchema(db)
                } else {
                    try Self.checkLayout(db, version: version, path: path)
                }
            }
            return queue
        }
    }

    /// Opens the index at `path` for reading only, for a folder that cannot be written (a full
    /// disk, a read-only mount). Nothing is written through it. SQLite needs a writable
    /// shared-memory file to read a write-ahead log, so three ways are tried in turn: a connection
    /// in exclusive locking mode, which keeps that index in memory (a full disk: the log a crash
    /// left is read); a read-only connection (a read-only mount whose log files exist); the file
    /// as immutable (a read-only mount after a clean close, when there is no log).
    init(readOnlyAt path: String) throws {
        self.path = path
        isReadOnly = true
        var firstError: (any Error)?
        var opened: DatabaseQueue?
        for attempt in 0..<3 {
            var configuration = Configuration()
            configuration.label = "reel.cache.index"
            var location = path
            switch attempt {
            case 0:
                configuration.prepareDatabase { db in
                    try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
                    try db.execute(sql: "PRAGMA query_only = 1")
                }
            case 1:
                configuration.readonly = true
            default:
                configuration.readonly = true
                // SQLite's URI file names are on in the system library.
                location = URL(fileURLWithPath: path).absoluteString + "?immutable=1"
            }
            do {
                let queue = try Self.wrapOpen(path) { try DatabaseQueue(path: location, configuration: configuration) }
                do {
                    try Self.wrapOpen(path) {
                        try queue.read { db in try Self.checkLayout(db, version: try Self.userVersion(db), path: path) }
                    }
                } catch {
                    try? queue.close()
                    throw error
                }
                opened = queue
                break
            } catch let error as ReelError where error.code == .cacheCorrupt {
                throw error
            } catch {
                firstError = firstError ?? error
            }
        }
        guard let opened else { throw firstError ?? ReelError(.cacheIO, "cannot open cache index '\(path)'") }
        queue = opened
    }

    /// `body`'s result, its SQLite errors turned into `ReelError`s.
    private static func wrapOpen<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
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

    /// The first column of every row `sql` returns, as stored.
    private static func column(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [SQLiteValue] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { $0.isEmpty ? nil : SQLiteValue(row: $0, 0) }
    }

    private static func userVersion(_ db: Database) throws -> Int64 {
        if case .integer(let version)? = try column(db, "PRAGMA user_version").first { return version }
        return -1
    }

    private static func tables(_ db: Database) throws -> Set<String> {
        Set(try column(db, "SELECT name FROM sqlite_master WHERE type = 'table'").compactMap(\.text))
    }

    /// Throws `.cacheCorrupt` unless the database has this version and every table and column
    /// the index reads (a table of the right name but other columns would fail every read).
    private static func checkLayout(_ db: Database, version: Int64, path: String) throws {
        let expected = ["entry": CacheIndexRow.columns, "counter": ["name", "value"], "meta": ["name", "value"]]
        var missing: [String] = []
        if version == Int64(schemaVersion) {
            let present = try tables(db)
            for (table, columns) in expected.sorted(by: { $0.key < $1.key }) {
                guard present.contains(table) else {
                    missing.append("table \(table)")
                    continue
                }
                let names = Set(try column(db, "SELECT name FROM pragma_table_info(?)", [table]).compactMap(\.text))
                missing += columns.filter { !names.contains($0) }.map { "\(table).\($0)" }
            }
        }
        guard version != Int64(schemaVersion) || !missing.isEmpty else { return }
        let detail = version == Int64(schemaVersion) ? "missing \(missing.prefix(3).joined(separator: ", "))" : "version \(version)"
        throw ReelError(.cacheCorrupt, "cache index '\(path)' has an unknown layout (\(detail))")
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

    /// Every row of `entry` with its `rowid`, as stored (`CacheIndexContents` decodes them).
    func loadEntryRows() throws -> [(rowid: Int64, values: [SQLiteValue])] {
        try wrap("reading") {
            try queue.read { db in
                var rows: [(rowid: Int64, values: [SQLiteValue])] = []
                if case .integer(let count)? = try Self.column(db, "SELECT count(*) FROM entry").first {
                    rows.reserveCapacity(Int(clamping: min(max(count, 0), 1 << 20)))
                }
                let cursor = try Row.fetchCursor(db, sql: """
                    SELECT rowid, \(CacheIndexRow.columns.joined(separator: ", ")) FROM entry
                    """)
                while let row = try cursor.next() {
                    guard case .integer(let rowid) = SQLiteValue(row: row, 0) else { continue }
                    rows.append((rowid, (1..<row.count).map { SQLiteValue(row: row, $0) }))
                }
                return rows
            }
        }
    }

    /// Every row of `counter`, as stored (`CacheIndexRow.counters` decodes them).
    func loadCounterRows() throws -> [(name: SQLiteValue, value: SQLiteValue)] {
        try wrap("reading") {
            try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT name, value FROM counter").map { row in
                    (SQLiteValue(row: row, 0), SQLiteValue(row: row, 1))
                }
            }
        }
    }

    /// Whether the last process that used the cache closed it: false after a crash or SIGKILL,
    /// and for a mark Reel does not write (the open then sweeps, which is always safe).
    func wasClosedCleanly() throws -> Bool {
        switch try metaValue("open") {
        case nil, .text("0")?: true
        default: false
        }
    }

    /// True when the index holds a row for `key` naming `file`: the entry is durable.
    func containsRow(key: String, file: String) throws -> Bool {
        try wrap("reading") {
            try queue.read { db in
                try Row.fetchOne(db, sql: "SELECT 1 FROM entry WHERE key = ? AND file = ?", arguments: [key, file]) != nil
            }
        }
    }

    func setOpen(_ open: Bool) throws {
        try wrap("writing") {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (name, value) VALUES ('open', ?)", arguments: [open ? "1" : "0"])
            }
        }
    }

    /// A text value of the `meta` table, or nil (absent, or not text).
    func meta(_ name: String) throws -> String? {
        try metaValue(name)?.text
    }

    private func metaValue(_ name: String) throws -> SQLiteValue? {
        try wrap("reading") {
            try queue.read { db in try Self.column(db, "SELECT value FROM meta WHERE name = ?", [name]).first }
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
                    case .deleteRow(let rowid):
                        try db.cachedStatement(sql: "DELETE FROM entry WHERE rowid = ?").execute(arguments: [rowid])
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
        guard !isReadOnly else { return }
        _ = try? queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Bytes of the database and its WAL and shared-memory files on disk.
    var footprintBytes: Int64 { Self.footprint(path) }

    /// Bytes of the index at `path` with its WAL and shared-memory files.
    static func footprint(_ path: String) -> Int64 {
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
        /// A row that does not decode (it may have no usable key).
        case deleteRow(Int64)
        case deleteAll
    }

    var touches: [String: Int64] = [:]
    var operations: [Operation] = []
    var counters: CacheCounters?
    /// Content files to unlink once the deletes are committed.
    var filesToRemove: [String] = []

    var isEmpty: Bool { touches.isEmpty && operations.isEmpty && counters == nil }
}

extension SQLiteValue {
    /// Column `index` of `row` as stored (by index: a row's elements carry their column names,
    /// which would be made into strings for every value).
    init(row: Row, _ index: Int) {
        self.init(row[index] as DatabaseValue)
    }

    /// The value GRDB read, without a typed conversion.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let real): self = .real(real)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob([UInt8](data))
        }
    }
}
