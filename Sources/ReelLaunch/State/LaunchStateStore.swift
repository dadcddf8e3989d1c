import Foundation
import GRDB
import ReelCore

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
///           status TEXT, problem TEXT, at REAL)                  status: valid, invalid, failed
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

    /// Everything the database holds. Rows that do not decode are left out.
    func load() throws -> StoredLaunchState {
        do {
            return try queue.read { db in
                var stored = StoredLaunchState()
                if let row = try Row.fetchOne(db, sql: "SELECT launches, lastEventAt, sessionStart, endedAt, crashGuardPending FROM lifecycle") {
                    var lifecycle = LaunchLifecycle()
                    lifecycle.launches = row[0]
                    lifecycle.lastEventAt = (row[1] as Double?).map(Date.init(timeIntervalSince1970:))
                    lifecycle.sessionStart = (row[2] as Double?).map(Date.init(timeIntervalSince1970:))
                    lifecycle.endedAt = (row[3] as Double?).map(Date.init(timeIntervalSince1970:))
                    lifecycle.crashGuardPending = row[4]
                    stored.state.lifecycle = lifecycle
                }
                for row in try Row.fetchAll(db, sql: "SELECT splash, lastShown FROM display") {
                    stored.state.lastDisplayed[row[0]] = Date(timeIntervalSince1970: row[1])
                }
                stored.state.crashes = try Row.fetchAll(db, sql: "SELECT at, sessionSeconds FROM crash ORDER BY seq DESC LIMIT \(LaunchState.crashesKept)")
                    .reversed().map { CrashRecord(time: Date(timeIntervalSince1970: $0[0]), sessionSeconds: $0[1]) }
                if let row = try Row.fetchOne(db, sql: "SELECT url, fetchedAt, body FROM configuration") {
                    let body: Data = row[2]
                    stored.configuration = StoredConfiguration(url: row[0], fetchedAt: Date(timeIntervalSince1970: row[1]), body: Array(body))
                }
                for row in try Row.fetchAll(db, sql: "SELECT url, file, bytes, checksum, status, problem, at FROM asset") {
                    let checksum: Int64 = row[3]
                    let problem: String = row[5]
                    let at = Date(timeIntervalSince1970: row[6])
                    let status: SplashAssetStatus
                    switch row[4] as String {
                    case "valid": status = .valid
                    case "invalid": status = .invalid(problem)
                    case "failed": status = .failed(problem, at: at)
                    default: continue
                    }
                    stored.assets.append(StoredAsset(url: row[0], file: row[1], bytes: row[2], checksum: UInt64(bitPattern: checksum),
                                                     status: status))
                }
                return stored
            }
        } catch {
            throw Self.failure("reading", path, error)
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
                        """, arguments: [lifecycle.launches, lifecycle.lastEventAt?.timeIntervalSince1970,
                                         lifecycle.sessionStart?.timeIntervalSince1970, lifecycle.endedAt?.timeIntervalSince1970,
                                         lifecycle.crashGuardPending])
                }
                for display in changes.displays {
                    try db.execute(sql: "INSERT OR REPLACE INTO display (splash, lastShown) VALUES (?, ?)",
                                   arguments: [display.splash, display.at.timeIntervalSince1970])
                }
                for crash in changes.crashes {
                    try db.execute(sql: "INSERT INTO crash (at, sessionSeconds) VALUES (?, ?)",
                                   arguments: [crash.time.timeIntervalSince1970, crash.sessionSeconds])
                }
                if !changes.crashes.isEmpty {
                    try db.execute(sql: "DELETE FROM crash WHERE seq <= (SELECT max(seq) FROM crash) - ?", arguments: [LaunchState.crashesKept])
                }
                if let configuration = changes.configuration {
                    try db.execute(sql: "INSERT OR REPLACE INTO configuration (id, url, fetchedAt, body) VALUES (1, ?, ?, ?)",
                                   arguments: [configuration.url, configuration.fetchedAt.timeIntervalSince1970, Data(configuration.body)])
                }
                for url in changes.deletes {
                    try db.execute(sql: "DELETE FROM asset WHERE url = ?", arguments: [url])
                }
                for asset in changes.upserts {
                    let (status, problem, at): (String, String, Double) = switch asset.status {
                    case .valid: ("valid", "", 0)
                    case .invalid(let problem): ("invalid", problem, 0)
                    case .failed(let problem, let at): ("failed", problem, at.timeIntervalSince1970)
                    }
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO asset (url, file, bytes, checksum, status, problem, at) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [asset.url, asset.file, asset.bytes, Int64(bitPattern: asset.checksum), status, problem, at])
                }
            }
        } catch {
            throw Self.failure("writing", path, error)
        }
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
