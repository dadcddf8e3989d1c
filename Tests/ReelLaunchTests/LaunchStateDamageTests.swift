import Foundation
import ReelCore
import ReelNet
import ReelSplash
import ReelTestSupport
import Testing
@testable import ReelLaunch

/// A launch state database whose values are of the wrong type or out of range (written by
/// another version, a tool, a damaged disk): the rows that do not decode are removed after one
/// warning, the others kept, and nothing traps.
@Suite("Launch state damage")
struct LaunchStateDamageTests {
    static let assetURL = "https://cdn.example/snowfall.json"

    /// A state folder holding a row in every table, the asset's file included.
    func withGoodState<T>(_ body: (LaunchStateFolder) throws -> T) throws -> T {
        let scratch = try makeScratchFolder("reel-launch-damage")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = LaunchStateFolder(directory: scratch.appendingPathComponent("state"))
        let opened = folder.open(logger: WarningLog().logger)
        let store = try #require(opened.store)
        var lifecycle = LaunchLifecycle()
        lifecycle.launches = 4
        lifecycle.lastEventAt = date("2026-11-24T08:00:00Z")
        lifecycle.sessionStart = date("2026-11-24T07:00:00Z")
        let bytes = try LaunchSamples.bytes("snowfall.json")
        let name = folder.fileName(for: Self.assetURL, taken: [])
        try folder.writeAsset(bytes, name: name)
        var changes = LaunchStateChanges(lifecycle: lifecycle)
        changes.displays = [("snowfall", date("2026-11-24T07:00:00Z")), ("lanterns", date("2026-11-23T07:00:00Z"))]
        changes.crashes = [CrashRecord(time: date("2026-11-23T00:00:00Z"), sessionSeconds: 4)]
        changes.configuration = StoredConfiguration(url: "https://cdn.example/splash-config.json", fetchedAt: date("2026-11-24T08:00:00Z"),
                                                    body: try LaunchSamples.bytes("splash-config.json"))
        changes.upserts = [
            StoredAsset(url: Self.assetURL, file: name, bytes: bytes.count, checksum: XXHash64.hash(bytes), status: .valid),
            StoredAsset(url: "https://cdn.example/gone.json", file: nil, bytes: 0, checksum: 0, status: .failed("HTTP 404", at: date("2026-11-24T08:00:01Z"))),
        ]
        try store.apply(changes)
        store.close()
        return try body(folder)
    }

    /// Runs SQL on the database as another program would.
    func damage(_ folder: LaunchStateFolder, _ sql: String) throws {
        let db = try SQLiteConnection(path: folder.databasePath)
        defer { db.close() }
        try db.write { try db.executeScript(sql) }
    }

    static let cases: [(sql: String, problem: String)] = [
        ("UPDATE lifecycle SET launches = 'many'", "lifecycle: launches text 'many' is not an integer"),
        ("UPDATE lifecycle SET launches = 9223372036854775807", "lifecycle: launches integer 9223372036854775807 is outside 0...2147483647"),
        ("UPDATE lifecycle SET lastEventAt = 'yesterday'", "lifecycle: lastEventAt text 'yesterday' is not a time"),
        ("UPDATE lifecycle SET crashGuardPending = 7", "lifecycle: crashGuardPending integer 7 is outside 0...1"),
        ("UPDATE display SET lastShown = 'soon' WHERE splash = 'lanterns'", "display: lastShown text 'soon' is not a time"),
        ("UPDATE display SET lastShown = 1e300 WHERE splash = 'lanterns'", "display: lastShown real 1e+300 is not a time between the years 1 and 9999"),
        ("UPDATE display SET splash = X'00FF' WHERE splash = 'lanterns'", "display: splash a blob of 2 bytes is not text"),
        ("UPDATE crash SET at = 'x'", "crash: at text 'x' is not a time"),
        ("UPDATE crash SET sessionSeconds = -5", "crash: sessionSeconds real -5.0 is not a number of seconds"),
        ("UPDATE configuration SET body = 'a text body'", "configuration: body text 'a text body' is not a blob"),
        ("UPDATE configuration SET fetchedAt = X'01'", "configuration: fetchedAt a blob of 1 bytes is not a time"),
        ("UPDATE asset SET checksum = 1e300 WHERE url LIKE '%gone%'", "asset: checksum real 1e+300 is not an integer"),
        ("UPDATE asset SET bytes = 'big' WHERE url LIKE '%gone%'", "asset: bytes text 'big' is not an integer"),
        ("UPDATE asset SET bytes = 9223372036854775807 WHERE url LIKE '%gone%'", "asset: bytes integer 9223372036854775807 is outside 0...1099511627776"),
        ("UPDATE asset SET status = 'bogus' WHERE url LIKE '%gone%'", "asset: status text 'bogus' is not valid, invalid, failed or checking"),
        ("UPDATE asset SET at = 'then' WHERE url LIKE '%gone%'", "asset: at text 'then' is not a time"),
        ("UPDATE asset SET file = '../../etc/passwd', status = 'valid' WHERE url LIKE '%gone%'", "asset: file text '../../etc/passwd' is not an asset file name"),
        ("UPDATE asset SET url = X'41' WHERE url LIKE '%gone%'", "asset: url a blob of 1 bytes is not text"),
    ]

    @Test(arguments: cases.indices)
    func aValueOfTheWrongTypeIsRepairedWithOneWarning(_ index: Int) throws {
        let (sql, problem) = Self.cases[index]
        try withGoodState { folder in
            try damage(folder, sql)
            let warnings = WarningLog()
            let opened = folder.open(logger: warnings.logger)
            #expect(warnings.all == ["launch state '\(folder.databasePath)' is damaged: 1 row did not decode (\(problem)); it was removed"],
                    "\(sql)")
            // The other rows are kept: a damaged display keeps the lifecycle, a damaged lifecycle the asset.
            #expect(opened.state.lastDisplayed["snowfall"] == date("2026-11-24T07:00:00Z"))
            #expect(opened.assets[Self.assetURL]?.status == .valid)
            if !sql.contains("lifecycle") { #expect(opened.state.lifecycle.launches == 4) }
            opened.store?.close()
            // Repaired: the next open has nothing to say.
            let again = WarningLog()
            let reopened = folder.open(logger: again.logger)
            #expect(again.all.isEmpty, "\(again.all)")
            reopened.store?.close()
        }
    }

    /// 500 damaged rows of every kind beside good ones: one warning, the good rows kept.
    @Test func fiveHundredDamagedRowsGiveOneWarning() throws {
        try withGoodState { folder in
            var statements: [String] = []
            let values = ["'text'", "X'00'", "1e300", "-1e300", "NULL", "9223372036854775807", "-9223372036854775808", "'soon'"]
            for index in 0..<500 {
                let value = values[index % values.count]
                switch index % 4 {
                case 0: statements.append("INSERT INTO display (splash, lastShown) VALUES ('d\(index)', \(value == "NULL" ? "'x'" : value))")
                case 1: statements.append("INSERT INTO crash (at, sessionSeconds) VALUES (\(value == "NULL" ? "'x'" : value), 1)")
                case 2: statements.append("INSERT INTO asset (url, file, bytes, checksum, status, problem, at) VALUES ('a\(index)', NULL, \(value == "NULL" ? "'x'" : value), 0, 'failed', '', 0)")
                default: statements.append("INSERT INTO display (splash, lastShown) VALUES (X'\(String(format: "%04x", index))', 0)")
                }
            }
            try damage(folder, statements.joined(separator: ";\n"))
            let warnings = WarningLog()
            let opened = folder.open(logger: warnings.logger)
            defer { opened.store?.close() }
            #expect(warnings.all.count == 1, "\(warnings.all)")
            #expect(warnings.all.first?.contains("is damaged: 500 rows did not decode (") == true, "\(warnings.all)")
            #expect(opened.state.lastDisplayed.keys.sorted() == ["lanterns", "snowfall"])
            #expect(opened.state.lifecycle.launches == 4)
            #expect(opened.assets.count == 2)
            #expect(try opened.store?.load().damaged.isEmpty == true)
        }
    }

    @Test func whatTheStoreWritesDecodesBack() throws {
        var stored = StoredLaunchState()
        stored.state.lifecycle.launches = 7
        stored.state.lifecycle.endedAt = date("2026-11-24T08:00:00Z")
        stored.state.lastDisplayed = ["a\u{0}b": date("2026-11-24T08:00:00Z")]
        stored.state.crashes = [CrashRecord(time: date("2026-11-24T08:00:00Z"), sessionSeconds: 2.5)]
        stored.configuration = StoredConfiguration(url: "https://cdn.example/c.json", fetchedAt: date("2026-11-24T08:00:00Z"), body: [1, 2])
        stored.assets = [StoredAsset(url: "u", file: "0123456789abcdef.json", bytes: 5, checksum: UInt64.max, status: .valid),
                         StoredAsset(url: "v", file: nil, bytes: 0, checksum: 0, status: .failed("x", at: date("2026-11-24T08:00:00Z")))]
        #expect(LaunchStateRows(stored).decode() == stored)
    }
}
