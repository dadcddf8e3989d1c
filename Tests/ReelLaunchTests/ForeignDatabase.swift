import ReelNet

/// Another program's SQLite database, for the test of a launch state file that is not Reel's.
struct ForeignDatabase {
    let path: String

    /// Drops Reel's tables and leaves one of its own.
    func replaceTables() throws {
        let db = try SQLiteConnection(path: path)
        defer { db.close() }
        try db.write {
            for table in ["lifecycle", "display", "crash", "configuration", "asset"] {
                try db.execute("DROP TABLE IF EXISTS \(table)")
            }
            try db.execute("CREATE TABLE notes (text TEXT)")
        }
    }
}
