import Foundation
import ReelNet
import ReelStore
import ReelTestSupport
import Testing

/// The one connection the cache index and the launch state talk to SQLite through: values come
/// back by storage class, text as C strings, and transactions, reads and failures behave as the
/// stores expect (as GRDB's did for them).
@Suite("SQLite connection")
final class SQLiteConnectionTests {
    // Each test gets its folder from the suite's instance (one per test) rather than in a
    // `with...` closure: with Swift 6.3.1, an `#expect(throws:)` closure inside a closure and the
    // next closure beside it were compiled to one function, so the second ran the first's body.
    let folder: URL
    /// A database file in `folder`, not created yet.
    let path: String

    init() throws {
        folder = try makeScratchFolder("reel-sqlite")
        path = folder.appendingPathComponent("test.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func valuesComeBackByStorageClass() throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE t (v)")
        let values: [SQLiteValue] = [.integer(.min), .integer(.max), .real(-0.5), .text("é\r\n"), .blob([0, 255]), .blob([]), .null]
        for value in values { try db.execute("INSERT INTO t VALUES (?)", [value]) }
        #expect(try db.rows("SELECT v FROM t ORDER BY rowid").map { $0[0] } == values)
        // Text is a C string both ways: it ends at its first NUL.
        #expect(try db.rows("SELECT ?, CAST(x'610062' AS TEXT)", [.text("a\u{0}b")]) == [[.text("a"), .text("a")]])
    }

    @Test func aFailedWriteLeavesNothingBehindAndNoTransactionOpen() throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE t (v INTEGER NOT NULL)")
        let error = #expect(throws: SQLiteError.self) {
            try db.write {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (NULL)")
            }
        }
        #expect(error?.message == "NOT NULL constraint failed: t.v")
        #expect(try db.rows("SELECT count(*) FROM t") == [[.integer(0)]])
        try db.write { try db.execute("INSERT INTO t VALUES (2)") }
        #expect(try db.rows("SELECT v FROM t") == [[.integer(2)]])
    }

    /// A double-quoted word is a name only: a misspelt column is an error, not a string.
    @Test func doubleQuotedWordsAreNamesNotStrings() throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE t (v)")
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(try db.rows("SELECT \"v\" FROM t") == [[.integer(1)]])
        let error = #expect(throws: SQLiteError.self) { try db.rows("SELECT \"missing\" FROM t") }
        #expect(error?.message == "no such column: missing")
    }

    /// A read refuses writes (`query_only`) and turns that off again afterwards.
    @Test func aReadRefusesWritesAndLeavesTheConnectionWritable() throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE t (v)")
        let error = #expect(throws: SQLiteError.self) { try db.read { try db.execute("INSERT INTO t VALUES (1)") } }
        #expect(error?.message == "attempt to write a readonly database")
        try db.execute("PRAGMA query_only = 1")
        _ = try db.read { try db.rows("SELECT v FROM t") }
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(try db.read { try db.rows("SELECT v FROM t") } == [[.integer(1)]])
    }

    @Test func aStatementRunInsideItsOwnRowsGetsACopyOfItsOwn() throws {
        let db = try SQLiteConnection(path: path)
        try db.executeScript("CREATE TABLE t (v); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);")
        var inner: [Int] = []
        try db.forEachRow("SELECT v FROM t") { _ in inner.append(try db.rows("SELECT v FROM t").count) }
        #expect(inner == [2, 2])
    }

    @Test func aFileThatIsNotADatabaseFailsAtOpen() throws {
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteError.self) { try SQLiteConnection(path: path) }
        #expect(error?.code.primary == .notADatabase && error?.message == "file is not a database", "\(String(describing: error))")
    }

    @Test func aFileThatCannotBeOpenedFailsWithSQLitesText() {
        let error = #expect(throws: SQLiteError.self) { try SQLiteConnection(path: "/nonexistent/reel.sqlite", readOnly: true) }
        #expect(error?.message == "unable to open database file", "\(String(describing: error))")
    }

    @Test func aClosedConnectionRefusesEveryCall() throws {
        let db = try SQLiteConnection(path: path)
        db.close()
        db.close()
        let error = #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
        #expect(error?.code == .misuse && error?.message == "Connection is closed")
    }
}
