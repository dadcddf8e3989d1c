import Foundation
import ReelCore
import ReelNet
import ReelSplash
import ReelStore

/// The launch state's database: one SQLite file (`SQLiteConnection`) in WAL mode with `synchronous = NORMAL`,
/// as the cache index, so a committed transaction survives a crash or SIGKILL of the process.
/// Schema (version 1, `PRAGMA user_version`; times are seconds since 1970, UTC):
///
///     lifecycle(id INTEGER PRIMARY KEY CHECK (id = 1), launches INTEGER, lastEventAt REAL NULL,
///               sessionStart REAL NULL, endedAt REAL NULL, crashGuardPending INTEGER)
///     display(splash TEXT PRIMARY KEY, lastShown REAL)
///     crash(seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL, sessionSeconds REAL)   the last 32
///     configuration(id INTEGER PRIMARY KEY CHECK (id = 1), url TEXT, fetchedAt REAL, body BLOB)
///     asset(url TEXT PRIMARY KEY, file TEXT NULL, bytes INTEGER, checksum INTEGER,
///           status TEXT, problem TEXT, at REAL)      status: valid, invalid, failed, checking
///
/// Values are read by storage class and decoded by `LaunchStateRows` (a row of the wrong type
/// is damaged, never a trap) and written by its encoders.
///
/// Blocking: used only from the `LaunchController`'s own thread (and while opening, a pool thread);
/// `Sendable` as the controller closes it from a pool thread, its connection behind a lock.
final class LaunchStateStore: Sendable {
    static let schemaVersion = 1
    static let tables: Set<String> = ["lifecycle", "display", "crash", "configuration", "asset"]
    let path: String
    /// One thread at a time uses the connection (`SQLiteConnection` is not `Sendable`).
    private let connection: Locked<SQLiteConnection>

    /// Opens (creating when missing) the database at `path`. Throws `ReelError(.cacheCorrupt)`
    /// when the file is not a launch state database, `.cacheIO` when it cannot be opened.
    init(path: String) throws {
        self.path = path
        do {
            let db = try SQLiteConnection(path: path) { db in
                try db.execute("PRAGMA journal_mode = WAL")
                try db.execute("PRAGMA synchronous = NORMAL")
            }
            try db.write {
                let version = if case .integer(let version)? = try db.rows("PRAGMA user_version").first?.first { Int(version) } else { 0 }
                let tables = Set(try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.text })
                    .subtracting(["sqlite_sequence"])
                if version == 0 && tables.isEmpty {
                    try Self.createSchema(db)
                } else if version != Self.schemaVersion || !tables.isSuperset(of: Self.tables) {
                    throw ReelError(.cacheCorrupt, "launch state '\(path)' has an unknown layout (version \(version))")
                }
                for (table, columns) in LaunchStateRows.columns {
                    // The column `name` of `table_info`'s rows (cid, name, type, notnull, dflt_value, pk).
                    let present = Set(try db.rows("PRAGMA table_info(\(table))").compactMap { $0.count > 1 ? $0[1].text : nil })
                    guard present.isSuperset(of: columns) else {
                        throw ReelError(.cacheCorrupt, "launch state '\(path)' has an unknown layout (table \(table) lacks \(columns.filter { !present.contains($0) }.joined(separator: ", ")))")
                    }
                }
            }
            connection = Locked(db)
        } catch {
            throw Self.failure("opening", path, error)
        }
    }

    private static func createSchema(_ db: SQLiteConnection) throws {
        try db.executeScript("""
            CREATE TABLE lifecycle (
                id INTEGER PRIMARY KEY CHECK (id = 1), launches INTEGER NOT NULL, lastEventAt REAL,
                sessionStart REAL, endedAt REAL, crashGuardPending INTEGER NOT NULL);
            CREATE TABLE display (splash TEXT PRIMARY KEY NOT NULL, lastShown REAL NOT NULL);
            CREATE TABLE crash (seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, sessionSeconds REAL NOT NULL);
            CREATE TABLE configuration (
                id INTEGER PRIMARY KEY CHECK (id = 1), url TEXT NOT NULL, fetchedAt REAL NOT NULL, body BLOB NOT NULL);
            CREATE TABLE asset (
                url TEXT PRIMARY KEY NOT NULL, file TEXT, bytes INTEGER NOT NULL, checksum INTEGER NOT NULL,
                status TEXT NOT NULL, problem TEXT NOT NULL, at REAL NOT NULL);
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    /// Everything the database holds, decoded by `LaunchStateRows` without trusting a value's
    /// type or range: rows that do not decode are listed in `damaged` and left out.
    func load() throws -> StoredLaunchState {
        do {
            return try connection.withLock { db in
                try db.read {
                    var rows = LaunchStateRows()
                    for (table, columns) in LaunchStateRows.columns {
                        let read = try db.rows("SELECT rowid, \(columns.joined(separator: ", ")) FROM \(table)").map { values in
                            let rowid: Int64 = if case .integer(let id) = values.first { id } else { 0 }
                            return LaunchStateRows.Row(rowid: rowid, values: Array(values.dropFirst()))
                        }
                        switch table {
                        case "lifecycle": rows.lifecycle = read
                        case "display": rows.display = read
                        case "crash": rows.crash = read
                        case "configuration": rows.configuration = read
                        default: rows.asset = read
                        }
                    }
                    return rows.decode()
                }
            }
        } catch {
            throw Self.failure("reading", path, error)
        }
    }

    /// Removes rows that did not decode, in one transaction.
    func remove(_ damaged: [DamagedRow]) throws {
        guard !damaged.isEmpty else { return }
        do {
            try connection.withLock { db in
                try db.write {
                    for row in damaged where LaunchStateRows.columns.contains(where: { $0.table == row.table }) {
                        try db.execute("DELETE FROM \(row.table) WHERE rowid = ?", [.integer(row.rowid)])
                    }
                }
            }
        } catch {
            throw Self.failure("repairing", path, error)
        }
    }

    /// Records that the asset from `url` is being checked, before rlottie sees it: if the
    /// process dies in the check, the next open finds the row so and refuses the asset.
    func markChecking(_ url: String, bytes: Int, checksum: UInt64) throws {
        do {
            try connection.withLock { db in
                try db.write {
                    try Self.insertAsset(db, LaunchStateRows.values(checking: url, bytes: bytes, checksum: checksum))
                }
            }
        } catch {
            throw Self.failure("writing", path, error)
        }
    }

    /// Applies `changes` in one transaction.
    func apply(_ changes: LaunchStateChanges) throws {
        guard !changes.isEmpty else { return }
        do {
            try connection.withLock { db in
                try db.write {
                    if let lifecycle = changes.lifecycle {
                        try db.execute("""
                            INSERT OR REPLACE INTO lifecycle (id, launches, lastEventAt, sessionStart, endedAt, crashGuardPending)
                            VALUES (1, ?, ?, ?, ?, ?)
                            """, LaunchStateRows.values(lifecycle))
                    }
                    for display in changes.displays {
                        try db.execute("INSERT OR REPLACE INTO display (splash, lastShown) VALUES (?, ?)",
                                       LaunchStateRows.values(display: display.splash, at: display.at))
                    }
                    for crash in changes.crashes {
                        try db.execute("INSERT INTO crash (at, sessionSeconds) VALUES (?, ?)", LaunchStateRows.values(crash))
                    }
                    if !changes.crashes.isEmpty {
                        try db.execute("DELETE FROM crash WHERE seq <= (SELECT max(seq) FROM crash) - ?",
                                       [.integer(Int64(LaunchState.crashesKept))])
                    }
                    if let configuration = changes.configuration {
                        try db.execute("INSERT OR REPLACE INTO configuration (id, url, fetchedAt, body) VALUES (1, ?, ?, ?)",
                                       LaunchStateRows.values(configuration))
                    }
                    for url in changes.deletes {
                        try db.execute("DELETE FROM asset WHERE url = ?", [.text(url)])
                    }
                    for asset in changes.upserts {
                        try Self.insertAsset(db, LaunchStateRows.values(asset))
                    }
                }
            }
        } catch {
            throw Self.failure("writing", path, error)
        }
    }

    private static func insertAsset(_ db: SQLiteConnection, _ values: [SQLiteValue]) throws {
        try db.execute("INSERT OR REPLACE INTO asset (url, file, bytes, checksum, status, problem, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       values)
    }

    func close() {
        connection.withLock { $0.close() }
    }

    /// A `ReelError` for a failed step: `.cacheCorrupt` when SQLite finds the file is not a
    /// database or is damaged, `.cacheIO` otherwise.
    private static func failure(_ action: String, _ path: String, _ error: any Error) -> ReelError {
        if let error = error as? ReelError { return error }
        if let error = error as? SQLiteError {
            let corrupt: [SQLiteResultCode] = [.notADatabase, .corrupt, .format]
            return ReelError(corrupt.contains(error.code.primary) ? .cacheCorrupt : .cacheIO,
                             "\(action) launch state '\(path)' failed: \(error.message)")
        }
        return ReelError(.cacheIO, "\(action) launch state '\(path)' failed: \(error)")
    }
}
