import CSQLite

/// An SQLite result code, primary (`SQLITE_CORRUPT`) or extended (`SQLITE_IOERR_WRITE`).
package struct SQLiteResultCode: Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    package static let abort = SQLiteResultCode(rawValue: SQLITE_ABORT)
    package static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    package static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    package static let format = SQLiteResultCode(rawValue: SQLITE_FORMAT)
    package static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)

    /// The primary code of an extended one (its low 8 bits): `SQLITE_IOERR_WRITE` gives `SQLITE_IOERR`.
    package var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's English text for the code. The corresponding C function is `sqlite3_errstr`.
    package var text: String { String(cString: sqlite3_errstr(rawValue)) }

    package var description: String { "\(rawValue) (\(text))" }
}

/// A failed SQLite call: the extended result code and the message SQLite gave for it
/// (`sqlite3_errmsg`, or `sqlite3_errstr` when the connection could not be opened).
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code; `code.primary` is what the stores map to a `ReelError`.
    package let code: SQLiteResultCode
    package let message: String

    package init(_ code: SQLiteResultCode, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "SQLite error \(code.primary.rawValue): \(message)" }
}
