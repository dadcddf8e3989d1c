import Foundation
import GRDB
import ReelCore
import ReelSplash
import ReelStore

/// The launch state's database: one SQLite file (GRDB) in WAL mode with `synchronous = NORMAL`,
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
/// Blocking: used only from the `LaunchController`'s own thread (and while opening, a pool thread).
final class LaunchStateStore: Sendable {
    static let schemaVersion = 1
    static let tables: Set<String> = ["lifecycle", "display", "crash", "configuration", "asset"]
    let path: String
    private let queue: DatabaseQueue

    /// Opens (creating when missing) the database at `path`. Throws `ReelError(.cacheCorrupt)`
    /// when the file is not a launch state database, `.cacheIO` when it cannot be opened.
    init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.label = "reel.launch.state"
        configuration.prepareDatabase { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.write { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                    .subtracting(["sqlite_sequence"])
                if version == 0 && tables.isEmpty {
                    try Self.createSchema(db)
                } else if version != Self.schemaVersion || !tables.isSuperset(of: Self.tables) {
                    throw ReelError(.cacheCorrupt, "launch state '\(path)' has an unknown layout (version \(version))")
                }
                for (table, columns) in LaunchStateRows.columns {
                    let present = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").compactMap { String.fromDatabaseValue($0["name"] as DatabaseValue) })
                    guard present.isSuperset(of: columns) else {
                        throw ReelError(.cacheCorrupt, "launch state '\(path)' has an unknown layout (table \(table) lacks \(columns.filter { !present.contains($0) }.joined(separator: ", ")))")
                    }
                }
            }
        } catch {
            throw Self.failure("opening", path, error)
        }
    }

    private static func createSchema(_ db: Database) throws {
        try db.execute(sql: """
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
            return try queue.read { db in
                var rows = LaunchStateRows()
                for (table, columns) in LaunchStateRows.columns {
                    let read = try Row.fetchAll(db, sql: "SELECT rowid, \(columns.joined(separator: ", ")) FROM \(table)").map { row in
                        let values = (0..<row.count).map { Self.value(row[$0] as DatabaseValue) }
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
        } catch {
            throw Self.failure("reading", path, error)
        }
    }

    /// Removes rows that did not decode, in one transaction.
    func remove(_ damaged: [DamagedRow]) throws {
        guard !damaged.isEmpty else { return }
        do {
            try queue.write { db in
                for row in damaged where LaunchStateRows.columns.contains(where: { $0.table == row.table }) {
                    try db.execute(sql: "DELETE FROM \(row.table) WHERE rowid = ?", arguments: [row.rowid])
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
            try queue.write { db in
                try Self.insertAsset(db, LaunchStateRows.values(checking: url, bytes: bytes, checksum: checksum))
            }
        } catch {
            throw Self.failure("writing", path, error)
        }
    }

    /// Applies `changes` in one transaction.
    func apply(_ changes: LaunchStateChanges) throws {
        guard !changes.isEmpty else { return }
        do {
            try queue.write { db in
                if let lifecycle = changes.lifecycle {
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO lifecycle (id, launches, lastEventAt, sessionStart, endedAt, crashGuardPending)
                        VALUES (1, ?, ?, ?, ?, ?)
                        """, arguments: Self.arguments(LaunchStateRows.values(lifecycle)))
                }
                for display in changes.displays {
                    try db.execute(sql: "INSERT OR REPLACE INTO display (splash, lastShown) VALUES (?, ?)",
                                   arguments: Self.arguments(LaunchStateRows.values(display: display.splash, at: display.at)))
                }
                for crash in changes.crashes {
                    try db.execute(sql: "INSERT INTO crash (at, sessionSeconds) VALUES (?, ?)", arguments: Self.arguments(LaunchStateRows.values(crash)))
                }
                if !changes.crashes.isEmpty {
                    try db.execute(sql: "DELETE FROM crash WHERE seq <= (SELECT max(seq) FROM crash) - ?", arguments: [LaunchState.crashesKept])
                }
                if let configuration = changes.configuration {
                    try db.execute(sql: "INSERT OR REPLACE INTO configuration (id, url, fetchedAt, body) VALUES (1, ?, ?, ?)",
                                   arguments: Self.arguments(LaunchStateRows.values(configuration)))
                }
                for url in changes.deletes {
                    try db.execute(sql: "DELETE FROM asset WHERE url = ?", arguments: [url])
                }
                for asset in changes.upserts {
                    try Self.insertAsset(db, LaunchStateRows.values(asset))
                }
            }
        } catch {
            throw Self.failure("writing", path, error)
        }
    }

    private static func insertAsset(_ db: Database, _ values: [SQLiteValue]) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO asset (url, file, bytes, checksum, status, problem, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       arguments: arguments(values))
    }

    /// A value as GRDB reads it, by storage class: never a conversion that can fail.
    private static func value(_ value: DatabaseValue) -> SQLiteValue {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .blob(Array(data))
        }
    }

    private static func arguments(_ values: [SQLiteValue]) -> StatementArguments {
        StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let number): number.databaseValue
            case .real(let number): number.databaseValue
            case .text(let text): text.databaseValue
            case .blob(let bytes): Data(bytes).databaseValue
            }
        })
    }

    func close() {
        try? queue.close()
    }

    /// A `ReelError` for a failed step: `.cacheCorrupt` when SQLite finds the file is not a
    /// database or is damaged, `.cacheIO` otherwise.
    private static func failure(_ action: String, _ path: String, _ error: any Error) -> ReelError {
        if let error = error as? ReelError { return error }
        if let error = error as? DatabaseError {
            let corrupt: [ResultCode] = [.SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_FORMAT]
            return ReelError(corrupt.contains(error.resultCode) ? .cacheCorrupt : .cacheIO,
                             "\(action) launch state '\(path)' failed: \(error.message ?? "\(error.resultCode)")")
        }
        return ReelError(.cacheIO, "\(action) launch state '\(path)' failed: \(error)")
    }
}
