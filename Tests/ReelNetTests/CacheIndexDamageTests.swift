import Foundation
import ReelCore
@testable import ReelNet
@testable import ReelStore
import ReelTestSupport
import Testing
import ReelManifest
import ReelNet
import ReelStore

/// A damaged cache index: every value is decoded without a trap or a later overflow, rows that
/// cannot be vouched for are dropped (with their files) after one warning, and what can is kept.
@Suite("Cache index damage")
struct CacheIndexDamageTests {
    /// A row Reel writes: a complete segment.
    static func row(key: String = "https://cdn.example/v/seg_000.ts", file: String = "0123456789abcdef.1",
                    length: Int64 = 1_000, lastAccess: Int64 = 7) -> [SQLiteValue] {
        [.text(key), .text(file), .text("segment"), .integer(length), .integer(length), .integer(1),
         .integer(-42), .integer(0), .text("prefetch"), .integer(1), .integer(lastAccess)]
    }

    static func with(_ column: String, _ value: SQLiteValue) -> [SQLiteValue] {
        var values = row()
        values[CacheIndexRow.columns.firstIndex(of: column)!] = value
        return values
    }

    @Test func aRowReelWritesDecodes() throws {
        let entry = try CacheIndexRow.entry(Self.row()).get()
        #expect(entry.key == "https://cdn.example/v/seg_000.ts" && entry.length == 1_000 && entry.isComplete)
        #expect(entry.checksum == UInt64(bitPattern: -42) && entry.origin == .prefetch && entry.usedByPlayback)
    }

    static let hostile: [(column: String, value: SQLiteValue)] = [
        ("length", .integer(.max)), ("length", .integer(-1)), ("length", .text("1000")), ("length", .real(1e300)),
        ("length", .real(10.5)), ("length", .null), ("key", .blob([1, 2, 3])), ("key", .text("")), ("key", .integer(5)),
        ("file", .text("../../etc/passwd")), ("file", .text("0123456789abcdef.9223372036854775807")), ("file", .null),
        ("kind", .text("movie")), ("kind", .integer(1)), ("totalLength", .integer(999)), ("totalLength", .text("x")),
        ("complete", .integer(2)), ("complete", .text("yes")), ("checksum", .real(1e300)), ("checksum", .blob([])),
        ("live", .integer(-1)), ("origin", .text("somewhere")), ("used", .real(.nan)), ("lastAccess", .text("now")),
        ("lastAccess", .real(.infinity)),
    ]

    @Test(arguments: hostile.indices)
    func aWrongValueIsRefusedNamingItsColumn(index: Int) {
        let (column, value) = Self.hostile[index]
        switch CacheIndexRow.entry(Self.with(column, value)) {
        case .success(let entry): Issue.record("\(column) = \(value.summary) was accepted: \(entry)")
        case .failure(let damage): #expect(damage.column == column, "\(damage)")
        }
    }

    @Test func aRowOfTheWrongWidthIsRefused() {
        #expect(throws: CacheIndexRow.Damage.self) { try CacheIndexRow.entry(Array(Self.row().dropLast())).get() }
    }

    /// The LRU clock adds to the stored access times: extreme ones are renumbered in their order.
    @Test func accessTimesOutOfRangeAreRenumberedInTheirOrder() {
        let contents = CacheIndexContents(rows: [
            (1, Self.row(key: "a", file: "0000000000000001.1", lastAccess: .max)),
            (2, Self.row(key: "b", file: "0000000000000002.2", lastAccess: .min)),
            (3, Self.row(key: "c", file: "0000000000000003.3", lastAccess: 5)),
        ])
        #expect(contents.dropped.isEmpty && contents.renumbered)
        #expect(contents.entries.map(\.key) == ["b", "c", "a"])
        #expect(contents.entries.map(\.lastAccess) == [1, 2, 3])
        var index = CacheIndex()
        for entry in contents.entries { index.insert(entry, keepAccessTime: true) }
        #expect(index.touch("b")?.lastAccess == 4 && index.leastRecentlyUsed?.key == "c")
    }

    @Test func aKeyOrFileNamedTwiceKeepsTheMostRecentRow() {
        let contents = CacheIndexContents(rows: [
            (1, Self.row(key: "a", file: "0000000000000001.1", lastAccess: 1)),
            (2, Self.row(key: "a", file: "0000000000000002.2", lastAccess: 2)),
            (3, Self.row(key: "b", file: "0000000000000003.3", lastAccess: 3)),
            (4, Self.row(key: "c", file: "0000000000000003.3", lastAccess: 4)),
        ])
        #expect(contents.entries.map(\.key) == ["a", "c"] && contents.entries.first?.file == "0000000000000002.2")
        #expect(contents.dropped.map(\.rowid) == [1, 3] && contents.dropped.map(\.damage.column) == ["key", "file"])
    }

    /// The byte total adds every length: entries claiming more than 2^62 bytes together are damage.
    @Test func theEntriesCannotClaimMoreBytesTogetherThanTheTotalHolds() {
        let most = Int(CacheIndexContents.maxTotal / CacheIndexRow.maxLength)
        let contents = CacheIndexContents(rows: (0..<(most + 6)).map { index in
            (Int64(index), Self.row(key: "k\(index)", file: "00000000000000ff.\(index + 1)", length: CacheIndexRow.maxLength,
                                    lastAccess: Int64(index + 1)))
        })
        #expect(contents.entries.count == most && contents.dropped.count == 6)
        #expect(contents.dropped.allSatisfy { $0.damage.column == "length" && $0.rowid < 6 }, "the least recent go first")
        var index = CacheIndex()
        for entry in contents.entries { index.insert(entry, keepAccessTime: true) }
        #expect(index.totalBytes == CacheIndexContents.maxTotal)
    }

    @Test func countersThatAreNotCountsStartFromZero() {
        let (counters, damage) = CacheIndexRow.counters([
            (.text("hits"), .text("lots")), (.text("misses"), .integer(.max)), (.text("hitBytes"), .integer(12)),
            (.text("missBytes"), .integer(-3)), (.text("other"), .blob([1])), (.blob([1]), .integer(1)),
        ])
        #expect(counters.hits == 0 && counters.misses == 0 && counters.hitBytes == 12 && counters.missBytes == 0)
        #expect(damage.map(\.column) == ["counter 'hits'", "counter 'misses'", "counter 'missBytes'"])
    }

    // MARK: Through SQLite

    /// A cache folder with `count` stored entries, closed; their keys.
    static func makeCache(_ folder: URL, count: Int) async throws -> [String] {
        let cache = try await BlockingPool.shared.run { try Cache.openOrThrow(directory: folder, maxBytes: 64 << 20) }
        var keys: [String] = []
        for index in 0..<count {
            let spec = DataSpec(url: URL(string: "https://cdn.example/v/seg_\(index).ts")!, kind: .segment)
            let stored = try await BlockingPool.shared.run {
                cache.store(CacheHarness.bytes(1_000 + index, seed: UInt64(index)), for: spec)
            }
            #expect(stored != nil)
            keys.append(spec.cacheKey)
        }
        try await CacheHarness.close(cache)
        return keys
    }

    /// Runs `body` in one transaction on the folder's index, as another program would: a
    /// connection of its own, on a pool thread, closed afterwards.
    static func writeIndex<T: Sendable>(_ folder: URL, _ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let path = folder.appendingPathComponent("index.sqlite").path
        return try await BlockingPool.shared.run {
            let db = try SQLiteConnection(path: path)
            defer { db.close() }
            return try db.write { try body(db) }
        }
    }

    @Test func aDamagedIndexIsRepairedWithOneWarningAndKeepsWhatItCanVouchFor() async throws {
        let folder = try makeScratchFolder("reel-index-damage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = try await Self.makeCache(folder, count: 5)
        try await Self.writeIndex(folder) { db in
            try db.execute("UPDATE entry SET length = 9223372036854775807 WHERE key = ?", [.text(keys[0])])
            try db.execute("UPDATE entry SET lastAccess = 9223372036854775807 WHERE key = ?", [.text(keys[1])])
            try db.execute("UPDATE entry SET length = -1 WHERE key = ?", [.text(keys[2])])
            try db.execute("UPDATE entry SET checksum = 'not a number' WHERE key = ?", [.text(keys[3])])
            try db.execute("INSERT OR REPLACE INTO counter (name, value) VALUES ('hits', 'lots')")
            try db.execute("INSERT OR REPLACE INTO counter (name, value) VALUES ('misses', 4)")
            try db.execute("""
                INSERT INTO entry VALUES (x'00ff', '0123456789abcdef.9', 'segment', 1, 1, 1, 0, 0, 'playback', 1, 1)
                """)
        }
        let warnings = WarningLog()
        let cache = try await BlockingPool.shared.run {
            try Cache.openOrThrow(directory: folder, maxBytes: 64 << 20, logger: warnings.logger())
        }
        #expect(warnings.lines.count == 1, "\(warnings.lines)")
        let warning = try #require(warnings.lines.first)
        for expected in ["damaged", "dropped 4 of 6 entries", "length 9223372036854775807 is above", "reset 1 counter",
                         "renumbered"] {
            #expect(warning.contains(expected), "\(warning)")
        }
        // What the index could vouch for is served: the entry with the extreme access time, and the untouched one.
        #expect(Set(cache.entries.map(\.key)) == [keys[1], keys[4]])
        #expect(cache.entries.last?.key == keys[1], "the most recently used entry lost its place")
        #expect(cache.statistics().counters.hits == 0 && cache.statistics().counters.misses == 4)
        let report = try await BlockingPool.shared.run { cache.verify(repair: false) }
        #expect(report.isClean && report.checked == 2, "\(report)")
        try await CacheHarness.close(cache)
        // The dropped rows' files are gone and the repair is on disk: the next open is quiet.
        #expect(contentFiles(folder).count == 2)
        let again = WarningLog()
        let reopened = try await BlockingPool.shared.run {
            try Cache.openOrThrow(directory: folder, maxBytes: 64 << 20, logger: again.logger())
        }
        #expect(again.lines.isEmpty, "\(again.lines)")
        #expect(reopened.entries.count == 2)
        try await CacheHarness.close(reopened)
    }

    /// A value of each storage class, biased to the ones that trap or overflow.
    static func randomValue(_ random: inout SeededRandom, column: String, keys: [String]) -> SQLiteValue {
        let integers: [Int64] = [.max, .min, -1, 0, 1, 2, 1 << 48, (1 << 48) + 1, 1 << 62, 1_000]
        switch random.next() % 10 {
        case 0: return .real([1e300, -1e300, .nan, .infinity, 0.5, 1.0, 9.3e18][Int(random.next() % 7)])
        case 1: return .blob((0..<Int(random.next() % 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 2: return .text(["", "x", "segment", "prefetch", "1", "0123456789abcdef.1", "\r\n\0"][Int(random.next() % 7)])
        case 3: return .integer(Int64(bitPattern: random.next()))
        case 4, 5: return .integer(integers[Int(random.next() % UInt64(integers.count))])
        default:
            // A valid value, so rows get past their first columns.
            switch column {
            case "key": return .text(keys[Int(random.next() % UInt64(keys.count))] + "?\(random.next() % 1000)")
            case "file": return .text(String(format: "%016llx.%llu", random.next(), random.next() % 100))
            case "kind": return .text("segment")
            case "origin": return .text("playback")
            case "totalLength": return .integer(1_000)
            case "complete", "live", "used": return .integer(Int64(random.next() % 2))
            default: return .integer(Int64(random.next() % 2_000))
            }
        }
    }

    /// Random typed values in every column of hundreds of rows and in the counters: the cache
    /// opens, warns once and keeps only rows that decode; the next open is quiet.
    @Test func randomTypedValuesInTheIndexNeverCrashTheOpen() async throws {
        let folder = try makeScratchFolder("reel-index-random")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = try await Self.makeCache(folder, count: 3)
        var random = SeededRandom(seed: 22)
        let rows = (0..<1_200).map { _ in CacheIndexRow.columns.map { Self.randomValue(&random, column: $0, keys: keys) } }
        let counters = (0..<8).map { _ in
            (["hits", "misses", "hitBytes", "missBytes"][Int(random.next() % 4)], Self.randomValue(&random, column: "value", keys: keys))
        }
        let written = try await Self.writeIndex(folder) { db -> Int in
            let count = { () throws -> Int in
                if case .integer(let count)? = try db.rows("SELECT count(*) FROM entry").first?.first { Int(count) } else { 0 }
            }
            let before = try count()
            for row in rows {
                // The table's own constraints (NOT NULL, the key) refuse some rows, as they would a writer's.
                try db.execute("INSERT OR IGNORE INTO entry VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            }
            for (name, value) in counters {
                try db.execute("INSERT OR REPLACE INTO counter (name, value) VALUES (?, ?)", [.text(name), value])
            }
            return try count() - before
        }
        #expect(written >= 500, "only \(written) damaged rows were written")
        let warnings = WarningLog()
        let cache = try await BlockingPool.shared.run {
            try Cache.openOrThrow(directory: folder, maxBytes: 64 << 20, logger: warnings.logger())
        }
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("was damaged"), "\(warnings.lines)")
        for entry in cache.entries {
            #expect((0...CacheIndexRow.maxLength).contains(entry.length) && (1...CacheIndexContents.maxAccess).contains(entry.lastAccess))
        }
        let statistics = cache.statistics()
        print("\(written) random rows written into the index: \(statistics.entries) kept (every other dropped), 0 crashes")
        try await CacheHarness.close(cache)
        let again = WarningLog()
        let reopened = try await BlockingPool.shared.run {
            try Cache.openOrThrow(directory: folder, maxBytes: 64 << 20, logger: again.logger())
        }
        #expect(again.lines.isEmpty, "\(again.lines)")
        #expect(reopened.entries.count == statistics.entries)
        try await CacheHarness.close(reopened)
    }

    @Test func aRememberedEstimateOutOfRangeIsIgnored() async throws {
        let folder = try makeScratchFolder("reel-index-estimate")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.makeCache(folder, count: 0)
        try await Self.writeIndex(folder) { db in
            for (network, value) in [("huge", "9223372036854775807"), ("text", "fast"), ("fine", "1200")] {
                try db.execute("INSERT INTO meta (name, value) VALUES (?, ?)", [.text("bandwidth.\(network)"), .text(value)])
            }
            try db.execute("INSERT INTO meta (name, value) VALUES ('bandwidth.blob', x'01')")
        }
        let cache = try await BlockingPool.shared.run { try Cache.openOrThrow(directory: folder, maxBytes: 64 << 20) }
        let estimates = try await BlockingPool.shared.run {
            ["huge", "text", "blob", "fine"].map { cache.rememberedEstimate(network: $0) }
        }
        #expect(estimates == [nil, nil, nil, 1_200])
        try await CacheHarness.close(cache)
    }
}
