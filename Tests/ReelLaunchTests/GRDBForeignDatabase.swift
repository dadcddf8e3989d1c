import GRDB

/// Another program's SQLite database, for the test of a launch state file that is not Reel's.
struct GRDBForeignDatabase {
    let queue: DatabaseQueue

    init(path: String) throws {
        queue = try DatabaseQueue(path: path)
    }

    /// Drops Reel's tables and leaves one of its own.
    func replaceTables() throws {
        try queue.write { db in
            for table in ["lifecycle", "display", "crash", "configuration", "asset"] {
                try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
            }
            try db.execute(sql: "CREATE TABLE notes (text TEXT)")
        }
        try queue.close()
    }
}
