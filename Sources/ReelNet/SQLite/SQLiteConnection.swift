import CSQLite
import ReelStore

/// One SQLite database connection: the way the cache index (`CacheIndexStore`) and the launch
/// state (`LaunchStateStore`) talk to SQLite's C API. It sets a connection up as GRDB's
/// `DatabaseQueue` did for them (extended result codes, `foreign_keys` on, double-quoted strings
/// off, no busy handler, the file checked to be a database before use) and runs their statements
/// the same way: values bound and read by storage class (`SQLiteValue`), text as C strings,
/// writes in `BEGIN IMMEDIATE` transactions, reads in deferred ones with `query_only` on.
///
/// Not `Sendable`: one thread uses it at a time, which its owner guarantees with a lock (the
/// cache's `store`, `LaunchStateStore`'s own). So it is opened with `SQLITE_OPEN_NOMUTEX`, without
/// SQLite's own per-connection mutex.
package final class SQLiteConnection {
    /// Opened with `SQLITE_OPEN_READONLY`: transactions are deferred and reads leave `query_only` alone.
    private let isReadOnly: Bool
    /// Nil once closed.
    private var handle: OpaquePointer?
    /// Prepared statements by their SQL, reset after each use, finalized by `close`.
    private var statements: [String: OpaquePointer] = [:]

    /// Opens the database at `path` (read-write, created when missing, or `readOnly`; `uri`: `path`
    /// is a `file:` URI, such as `...?immutable=1`), turns foreign keys on, runs `prepare` (the
    /// store's pragmas), then reads `sqlite_master`, so a file that is not a database fails here.
    /// The corresponding C function is `sqlite3_open_v2`; its failure carries `sqlite3_errstr`'s text.
    package init(path: String, readOnly: Bool = false, uri: Bool = false,
                 prepare: (SQLiteConnection) throws -> Void = { _ in }) throws {
        isReadOnly = readOnly
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | (uri ? SQLITE_OPEN_URI : 0)
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            // A failed open may still have allocated a handle, which must be closed.
            sqlite3_close_v2(opened)
            let result = SQLiteResultCode(rawValue: code == SQLITE_OK ? SQLITE_INTERNAL : code)
            throw SQLiteError(result, result.text)
        }
        handle = opened
        do {
            // As GRDB did: "name" is an identifier only, never a string literal.
            let quoting = csqlite_disable_double_quoted_strings(opened)
            guard quoting == SQLITE_OK else { throw failure(quoting) }
            try execute("PRAGMA foreign_keys = ON")
            try prepare(self)
            try execute("SELECT * FROM sqlite_master LIMIT 1")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Finalizes the prepared statements and closes the connection (the last connection to a
    /// database in WAL mode checkpoints the log and removes it). Later calls throw `SQLITE_MISUSE`.
    /// The corresponding C function is `sqlite3_close_v2`.
    package func close() {
        guard let handle else { return }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    // MARK: Statements

    /// Runs one statement with `arguments` bound to its `?` in order, to its end (rows it returns are skipped).
    package func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        try run(sql, arguments) { _ in }
    }

    /// Calls `body` with each row one statement returns, its values by storage class.
    package func forEachRow(_ sql: String, _ arguments: [SQLiteValue] = [], _ body: ([SQLiteValue]) throws -> Void) throws {
        try run(sql, arguments, body)
    }

    /// Every row one statement returns, its values by storage class.
    package func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        try run(sql, arguments) { rows.append($0) }
        return rows
    }

    /// Runs every statement of `sql` in turn, without arguments (a schema, a test's damage).
    package func executeScript(_ sql: String) throws {
        let handle = try liveHandle()
        try sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: OpaquePointer?
                let code = sqlite3_prepare_v2(handle, current, -1, &statement, &next)
                guard code == SQLITE_OK else { throw failure(code) }
                guard let statement else { continue }
                defer { sqlite3_finalize(statement) }
                var step = sqlite3_step(statement)
                while step == SQLITE_ROW { step = sqlite3_step(statement) }
                guard step == SQLITE_DONE else { throw failure(step) }
            }
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` (deferred on a read-only connection), so
    /// the write lock is taken at once; `COMMIT`, or `ROLLBACK` when `body` or the commit throws.
    package func write<T>(_ body: () throws -> T) throws -> T {
        try transaction(isReadOnly ? "DEFERRED" : "IMMEDIATE", body)
    }

    /// Runs `body` in a deferred transaction, one snapshot of the database. On a read-write
    /// connection `query_only` is on meanwhile, so a statement that writes fails, and off again
    /// afterwards, as GRDB's `DatabaseQueue.read` did: whatever it was before, the connection
    /// can write after a read.
    package func read<T>(_ body: () throws -> T) throws -> T {
        guard !isReadOnly else { return try transaction("DEFERRED", body) }
        try execute("PRAGMA query_only = 1")
        let result = Result { try transaction("DEFERRED", body) }
        let reset = Result { try execute("PRAGMA query_only = 0") }
        let value = try result.get()
        try reset.get()
        return value
    }

    private func transaction<T>(_ kind: String, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind) TRANSACTION")
        do {
            let value = try body()
            // SQLite ended the transaction itself after an error `body` did not pass on: a commit
            // would fail vaguely ("no transaction is active"), so say what happened.
            guard sqlite3_get_autocommit(try liveHandle()) == 0 else { throw SQLiteError(.abort, "Transaction was aborted") }
            try execute("COMMIT TRANSACTION")
            return value
        } catch {
            // SQLite may have rolled back already (SQLITE_FULL, SQLITE_IOERR, ...): then there is nothing to end.
            if let handle, sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }

    // MARK: Inside

    private func liveHandle() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError(.misuse, "Connection is closed") }
        return handle
    }

    /// The error for a call that returned `code`, with the connection's message for it.
    /// The corresponding C function is `sqlite3_errmsg`.
    private func failure(_ code: Int32) -> SQLiteError {
        let result = SQLiteResultCode(rawValue: code)
        return SQLiteError(result, handle.map { String(cString: sqlite3_errmsg($0)) } ?? result.text)
    }

    /// Binds `arguments`, steps the statement to its end and hands each row to `row`. The
    /// statement leaves the cache while it runs, so a body that runs the same SQL gets its own.
    private func run(_ sql: String, _ arguments: [SQLiteValue], _ row: ([SQLiteValue]) throws -> Void) throws {
        guard let statement = try statements.removeValue(forKey: sql) ?? prepare(sql) else { return }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            if handle != nil, statements[sql] == nil { statements[sql] = statement } else { sqlite3_finalize(statement) }
        }
        try bind(arguments, to: statement)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            try row(Self.values(statement))
        }
    }

    /// `sql` prepared, or nil when it holds no statement (only blanks or comments). One statement only.
    private func prepare(_ sql: String) throws -> OpaquePointer? {
        let handle = try liveHandle()
        var statement: OpaquePointer?
        var rest = ""
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            if let tail { rest = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else { throw failure(code) }
        guard rest.allSatisfy(\.isWhitespace) else {
            sqlite3_finalize(statement)
            throw SQLiteError(.misuse, "more than one statement in '\(sql)' (executeScript runs several)")
        }
        return statement
    }

    private func bind(_ arguments: [SQLiteValue], to statement: OpaquePointer) throws {
        guard Int(sqlite3_bind_parameter_count(statement)) == arguments.count else {
            throw SQLiteError(.misuse, "wrong number of statement arguments: \(arguments.count)")
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            // A C string, as GRDB bound text: it ends at its first NUL, as `values` reads it.
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    guard let base = buffer.baseAddress else { return sqlite3_bind_zeroblob(statement, index, 0) }
                    return sqlite3_bind_blob64(statement, index, base, sqlite3_uint64(buffer.count), Self.transient)
                }
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns (the C macro
    /// casts -1 to a destructor, which Swift does not import).
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }

    /// The current row's values by storage class, never converted: text read as a C string
    /// (invalid UTF-8 repaired), a blob copied.
    private static func values(_ statement: OpaquePointer) -> [SQLiteValue] {
        (0..<sqlite3_column_count(statement)).map { column -> SQLiteValue in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                return .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
            case SQLITE_BLOB:
                // The pointer first, then the count (SQLite's documented order).
                guard let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column)))))
            default:
                return .null
            }
        }
    }
}
