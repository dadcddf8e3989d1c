import Foundation
import ReelCore
import ReelManifest
import ReelStore

/// The durable mirror of the cache index: one SQLite database (`SQLiteConnection`) in WAL mode with
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
/// Blocking; used only from the cache's callers' threads under the cache's index lock (which
/// serializes the connection's use).
final class CacheIndexStore {
    static let schemaVersion = 1
    let path: String
    /// Opened for reading only (`init(readOnlyAt:)`): the cache applies no batch through it.
    let isReadOnly: Bool
    private let db: SQLiteConnection

    /// Opens (creating when missing) the index at `path`. Throws `ReelError(.cacheCorrupt)` when
    /// the file is not a usable index, `.cacheIO` when it cannot be opened.
    init(path: String) throws {
        self.path = path
        isReadOnly = false
        db = try Self.wrapOpen(path) {
            let db = try SQLiteConnection(path: path) { db in
                try db.execute("PRAGMA journal_mode = WAL")
                try db.execute("PRAGMA synchronous = NORMAL")
                try db.execute("PRAGMA wal_autocheckpoint = 64")
                try db.execute("PRAGMA journal_size_limit = 262144")
            }
            try db.write {
                let version = try Self.userVersion(db)
                let tables = try Self.tables(db)
                if version == 0 && tables.isEmpty {
                    try Self.createSchema(db)
                } else {
                    try Self.checkLayout(db, version: version, path: path)
                }
            }
            return db
        }
    }

    /// Opens the index at `path` for reading only, for a folder that cannot be written (a full
    /// disk, a read-only mount). SQLite needs a writable shared-memory file to read a write-ahead
    /// log, so three ways are tried in turn: a connection in exclusive locking mode, which keeps
    /// that index in memory (a full disk: the log a crash left is read); a read-only connection
    /// (a read-only mount whose log files exist); the file as immutable (a read-only mount after a
    /// clean close, when there is no log). The first is a read-write connection with `query_only`
    /// on, which the first read turns off again (`SQLiteConnection.read`).
    init(readOnlyAt path: String) throws {
        self.path = path
        isReadOnly = true
        var firstError: (any Error)?
        var opened: SQLiteConnection?
        for attempt in 0..<3 {
            do {
                let db = try Self.wrapOpen(path) {
                    switch attempt {
                    case 0:
                        try SQLiteConnection(path: path) { db in
                            try db.execute("PRAGMA locking_mode = EXCLUSIVE")
                            try db.execute("PRAGMA query_only = 1")
                        }
                    case 1:
                        try SQLiteConnection(path: path, readOnly: true)
                    default:
                        try SQLiteConnection(path: URL(fileURLWithPath: path).absoluteString + "?immutable=1", readOnly: true, uri: true)
                    }
                }
                do {
                    try Self.wrapOpen(path) {
                        try db.read { try Self.checkLayout(db, version: try Self.userVersion(db), path: path) }
                    }
                } catch {
                    db.close()
                    throw error
                }
                opened = db
                break
            } catch let error as ReelError where error.code == .cacheCorrupt {
                throw error
            } catch {
                firstError = firstError ?? error
            }
        }
        guard let opened else { throw firstError ?? ReelError(.cacheIO, "cannot open cache index '\(path)'") }
        db = opened
    }

    /// `body`'s result, its SQLite errors turned into `ReelError`s.
    private static func wrapOpen<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ReelError {
            throw error
        } catch let error as SQLiteError {
            let code: ReelError.Code = [.notADatabase, .corrupt, .format].contains(error.code.primary) ? .cacheCorrupt : .cacheIO
            throw ReelError(code, "cannot open cache index '\(path)': \(error.message)")
        } catch {
            throw ReelError(.cacheIO, "cannot open cache index '\(path)': \(error)")
        }
    }

    /// The first column of every row `sql` returns, as stored.
    private static func column(_ db: SQLiteConnection, _ sql: String, _ arguments: [SQLiteValue] = []) throws -> [SQLiteValue] {
        try db.rows(sql, arguments).compactMap(\.first)
    }

    private static func userVersion(_ db: SQLiteConnection) throws -> Int64 {
        if case .integer(let version)? = try column(db, "PRAGMA user_version").first { return version }
        return -1
    }

    private static func tables(_ db: SQLiteConnection) throws -> Set<String> {
        Set(try column(db, "SELECT name FROM sqlite_master WHERE type = 'table'").compactMap(\.text))
    }

    /// Throws `.cacheCorrupt` unless the database has this version and every table and column
    /// the index reads (a table of the right name but other columns would fail every read).
    private static func checkLayout(_ db: SQLiteConnection, version: Int64, path: String) throws {
        let expected = ["entry": CacheIndexRow.columns, "counter": ["name", "value"], "meta": ["name", "value"]]
        var missing: [String] = []
        if version == Int64(schemaVersion) {
            let present = try tables(db)
            for (table, columns) in expected.sorted(by: { $0.key < $1.key }) {
                guard present.contains(table) else {
                    missing.append("table \(table)")
                    continue
                }
                let names = Set(try column(db, "SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap(\.text))
                missing += columns.filter { !names.contains($0) }.map { "\(table).\($0)" }
            }
        }
        guard version != Int64(schemaVersion) || !missing.isEmpty else { return }
        let detail = version == Int64(schemaVersion) ? "missing \(missing.prefix(3).joined(separator: ", "))" : "version \(version)"
        throw ReelError(.cacheCorrupt, "cache index '\(path)' has an unknown layout (\(detail))")
    }

    private static func createSchema(_ db: SQLiteConnection) throws {
        try db.executeScript("""
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
            try db.read {
                var rows: [(rowid: Int64, values: [SQLiteValue])] = []
                if case .integer(let count)? = try Self.column(db, "SELECT count(*) FROM entry").first {
                    rows.reserveCapacity(Int(clamping: min(max(count, 0), 1 << 20)))
                }
                try db.forEachRow("SELECT rowid, \(CacheIndexRow.columns.joined(separator: ", ")) FROM entry") { values in
                    guard case .integer(let rowid)? = values.first else { return }
                    rows.append((rowid, Array(values.dropFirst())))
                }
                return rows
            }
        }
    }

    /// Every row of `counter`, as stored (`CacheIndexRow.counters` decodes them).
    func loadCounterRows() throws -> [(name: SQLiteValue, value: SQLiteValue)] {
        try wrap("reading") {
            try db.read {
                try db.rows("SELECT name, value FROM counter").map { row in (row[0], row[1]) }
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
            try db.read {
                try !db.rows("SELECT 1 FROM entry WHERE key = ? AND file = ?", [.text(key), .text(file)]).isEmpty
            }
        }
    }

    func setOpen(_ open: Bool) throws {
        try wrap("writing") {
            try db.write {
                try db.execute("INSERT OR REPLACE INTO meta (name, value) VALUES ('open', ?)", [.text(open ? "1" : "0")])
            }
        }
    }

    /// A text value of the `meta` table, or nil (absent, or not text).
    func meta(_ name: String) throws -> String? {
        try metaValue(name)?.text
    }

    private func metaValue(_ name: String) throws -> SQLiteValue? {
        try wrap("reading") {
            try db.read { try Self.column(db, "SELECT value FROM meta WHERE name = ?", [.text(name)]).first }
        }
    }

    /// Sets a value of the `meta` table, committed at once.
    func setMeta(_ name: String, _ value: String) throws {
        try wrap("writing") {
            try db.write {
                try db.execute("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", [.text(name), .text(value)])
            }
        }
    }

    /// Applies a batch in one transaction: access times, then upserts and deletes in order, then counters.
    /// The statements are prepared once per connection (`SQLiteConnection` keeps them).
    func apply(_ batch: CacheIndexBatch) throws {
        guard !batch.isEmpty else { return }
        try wrap("writing") {
            try db.write {
                for (key, access) in batch.touches {
                    try db.execute("UPDATE entry SET lastAccess = ? WHERE key = ?", [.integer(access), .text(key)])
                }
                for operation in batch.operations {
                    switch operation {
                    case .upsert(let entry):
                        try db.execute("""
                            INSERT OR REPLACE INTO entry
                            (key, file, kind, length, totalLength, complete, checksum, live, origin, used, lastAccess)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """, [
                            .text(entry.key), .text(entry.file), .text(entry.kind.rawValue), .integer(entry.length),
                            entry.totalLength.map(SQLiteValue.integer) ?? .null, .integer(entry.isComplete ? 1 : 0),
                            .integer(Int64(bitPattern: entry.checksum)), .integer(entry.isLive ? 1 : 0), .text(entry.origin.rawValue),
                            .integer(entry.usedByPlayback ? 1 : 0), .integer(entry.lastAccess),
                        ])
                    case .delete(let key):
                        try db.execute("DELETE FROM entry WHERE key = ?", [.text(key)])
                    case .deleteRow(let rowid):
                        try db.execute("DELETE FROM entry WHERE rowid = ?", [.integer(rowid)])
                    case .deleteAll:
                        try db.execute("DELETE FROM entry")
                    }
                }
                if let counters = batch.counters {
                    for (name, value) in [("hits", counters.hits), ("misses", counters.misses),
                                          ("hitBytes", counters.hitBytes), ("missBytes", counters.missBytes)] {
                        try db.execute("INSERT OR REPLACE INTO counter (name, value) VALUES (?, ?)", [.text(name), .integer(value)])
                    }
                }
            }
        }
    }

    /// Folds the write-ahead log into the database file and truncates it.
    func checkpoint() {
        guard !isReadOnly else { return }
        try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Bytes of the database and its WAL and shared-memory files on disk.
    var footprintBytes: Int64 { Self.footprint(path) }

    /// Bytes of the index at `path` with its WAL and shared-memory files.
    static func footprint(_ path: String) -> Int64 {
        [path, path + "-wal", path + "-shm"].reduce(0) { $0 + CacheFiles.size(of: $1) }
    }

    func close() {
        db.close()
    }

    private func wrap<T>(_ action: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ReelError {
            throw error
        } catch let error as SQLiteError {
            let code: ReelError.Code = [.notADatabase, .corrupt].contains(error.code.primary) ? .cacheCorrupt : .cacheIO
            throw ReelError(code, "\(action) cache index '\(path)' failed: \(error.message)")
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
