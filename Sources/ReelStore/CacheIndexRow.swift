import ReelCore
import ReelManifest
/// Decoding the cache index's rows: every value checked for its type and range, so a damaged
/// row is refused naming the column and the cause, never a trap here or an overflow later (the
/// LRU clock, the byte total, the next generation and the counters all add to these values).
public enum CacheIndexRow {
    /// The `entry` columns, in the order `CacheIndexStore` selects them.
    public static let columns = ["key", "file", "kind", "length", "totalLength", "complete", "checksum", "live",
                                 "origin", "used", "lastAccess"]
    /// The most bytes one entry may claim: 2^48 (256 TiB), past the largest file of common file systems.
    public static let maxLength: Int64 = 1 << 48
    /// The largest generation a content name may carry (Reel counts up from 1, one per stored version).
    public static let maxGeneration: Int64 = 1 << 53
    /// Counters (reads, bytes) beyond 2^62 are damage: no cache reads that much.
    public static let maxCounter: Int64 = 1 << 62

    /// Why a row was refused: the column and what is wrong with its value.
    public struct Damage: Error, Sendable, Hashable, CustomStringConvertible {
        public var column: String
        public var problem: String

        public init(_ column: String, _ problem: String) {
            self.column = column
            self.problem = problem
        }

        public var description: String { "\(column) \(problem)" }
    }

    /// The entry a row of `entry` holds (values in `columns` order), or why it holds none.
    public static func entry(_ values: [SQLiteValue]) -> Result<CacheEntry, Damage> {
        guard values.count == columns.count else {
            return .failure(Damage("row", "has \(values.count) values, not \(columns.count)"))
        }
        do {
            let key = try text(values[0], "key")
            guard !key.isEmpty else { throw Damage("key", "is empty") }
            let file = try text(values[1], "file")
            // `generation(of:)` is nil for a name that is not a content name.
            guard let generation = CacheFileName.generation(of: file), generation <= maxGeneration else {
                throw Damage("file", "'\(SQLiteValue.printable(file))' is not a content file name")
            }
            let kindName = try text(values[2], "kind")
            guard let kind = ResourceKind(rawValue: kindName) else {
                throw Damage("kind", "'\(SQLiteValue.printable(kindName))' is not a resource kind")
            }
            let length = try integer(values[3], "length", in: 0...maxLength)
            let complete = try flag(values[5], "complete")
            var total: Int64?
            if values[4] != .null { total = try integer(values[4], "totalLength", in: length...maxLength) }
            let checksum = try integer(values[6], "checksum", in: .min ... .max)
            let live = try flag(values[7], "live")
            let originName = try text(values[8], "origin")
            guard let origin = CacheOrigin(rawValue: originName) else {
                throw Damage("origin", "'\(SQLiteValue.printable(originName))' is not an origin")
            }
            let used = try flag(values[9], "used")
            // Any integer: only the order matters, and the loader renumbers values out of range.
            let lastAccess = try integer(values[10], "lastAccess", in: .min ... .max)
            return .success(CacheEntry(
                key: key, file: file, kind: kind, length: length, totalLength: complete ? length : total,
                isComplete: complete, checksum: UInt64(bitPattern: checksum), isLive: live, origin: origin,
                usedByPlayback: used, lastAccess: lastAccess))
        } catch let damage as Damage {
            return .failure(damage)
        } catch {
            return .failure(Damage("row", "\(error)"))
        }
    }

    /// The counters the rows of `counter` (name, value) hold. A row with a known name and a
    /// value that is not a count in range is damage (that counter starts from 0); other names
    /// are not Reel's concern and are ignored.
    public static func counters(_ rows: [(name: SQLiteValue, value: SQLiteValue)]) -> (CacheCounters, [Damage]) {
        var counters = CacheCounters()
        var damage: [Damage] = []
        let fields: [String: WritableKeyPath<CacheCounters, Int64>] = [
            "hits": \.hits, "misses": \.misses, "hitBytes": \.hitBytes, "missBytes": \.missBytes,
        ]
        for row in rows {
            guard let name = row.name.text, let field = fields[name] else { continue }
            do {
                counters[keyPath: field] = try integer(row.value, "counter '\(name)'", in: 0...maxCounter)
            } catch let problem as Damage {
                damage.append(problem)
            } catch {}
        }
        return (counters, damage)
    }

    static func text(_ value: SQLiteValue, _ column: String) throws -> String {
        guard let text = value.text else { throw Damage(column, "is \(value.summary), not text") }
        return text
    }

    /// An integer in `range`: an INTEGER, or a REAL that is exactly one (a table of another
    /// affinity may hold those). Text, blobs, fractions and out-of-range reals are refused.
    static func integer(_ value: SQLiteValue, _ column: String, in range: ClosedRange<Int64>) throws -> Int64 {
        let number: Int64
        switch value {
        case .integer(let integer): number = integer
        case .real(let real):
            guard let exact = Int64(exactly: real) else { throw Damage(column, "is \(value.summary), not an integer") }
            number = exact
        default: throw Damage(column, "is \(value.summary), not an integer")
        }
        guard range.contains(number) else {
            throw Damage(column, number < range.lowerBound
                         ? "\(number) is below \(range.lowerBound)" : "\(number) is above \(range.upperBound)")
        }
        return number
    }

    /// A flag: 0 or 1.
    static func flag(_ value: SQLiteValue, _ column: String) throws -> Bool {
        try integer(value, column, in: 0...1) == 1
    }
}

/// What opening makes of the index's rows: the entries to keep, least recently used first, and
/// the rows to delete with why. Pure, so it is fuzzed with the row decoder.
public struct CacheIndexContents: Sendable {
    /// A row that is dropped: its `rowid`, its key when that decoded, and why.
    public struct DroppedRow: Sendable, Hashable {
        public var rowid: Int64
        public var key: String?
        public var damage: CacheIndexRow.Damage
    }

    /// Entries to index, least recently used first; their access times lie in 1...`maxAccess`.
    public var entries: [CacheEntry] = []
    public var dropped: [DroppedRow] = []
    /// The stored access times were out of range and the entries were renumbered 1...n in their
    /// order: the index must be rewritten with the new times.
    public var renumbered = false

    /// The largest access time kept as stored: 2^60 (a billion reads a second for 36 years).
    public static let maxAccess: Int64 = 1 << 60
    /// The most bytes the entries may claim together: 2^62.
    public static let maxTotal: Int64 = 1 << 62

    public init(rows: [(rowid: Int64, values: [SQLiteValue])]) {
        var decoded: [(rowid: Int64, entry: CacheEntry)] = []
        decoded.reserveCapacity(rows.count)
        for row in rows {
            switch CacheIndexRow.entry(row.values) {
            case .success(let entry): decoded.append((row.rowid, entry))
            case .failure(let damage):
                dropped.append(DroppedRow(rowid: row.rowid, key: row.values.first?.text, damage: damage))
            }
        }
        // Sorting here is cheaper than SQLite's sorter, which copies every whole row.
        decoded.sort { ($0.entry.lastAccess, $0.rowid) < ($1.entry.lastAccess, $1.rowid) }
        // From the most recent down: a key or a file named twice (a table made without its
        // constraints) keeps its most recent row; the total stays representable.
        var keys = Set<String>(minimumCapacity: decoded.count), files = Set<String>(minimumCapacity: decoded.count)
        var total: Int64 = 0
        var kept = [Bool](repeating: false, count: decoded.count)
        for index in decoded.indices.reversed() {
            let (rowid, entry) = decoded[index]
            let damage: CacheIndexRow.Damage?
            if !keys.insert(entry.key).inserted {
                damage = CacheIndexRow.Damage("key", "is indexed again in a more recent row")
            } else if !files.insert(entry.file).inserted {
                keys.remove(entry.key)
                damage = CacheIndexRow.Damage("file", "'\(entry.file)' is named by a more recent row too")
            } else if entry.length > Self.maxTotal - total {
                keys.remove(entry.key)
                files.remove(entry.file)
                damage = CacheIndexRow.Damage("length", "\(entry.length) takes the entries past \(Self.maxTotal) bytes together")
            } else {
                damage = nil
            }
            if let damage {
                dropped.append(DroppedRow(rowid: rowid, key: entry.key, damage: damage))
                continue
            }
            total += entry.length
            kept[index] = true
        }
        entries.reserveCapacity(decoded.count)
        for index in decoded.indices where kept[index] { entries.append(decoded[index].entry) }
        if let first = entries.first, let last = entries.last, first.lastAccess < 1 || last.lastAccess > Self.maxAccess {
            for index in entries.indices { entries[index].lastAccess = Int64(index) + 1 }
            renumbered = true
        }
        dropped.sort { $0.rowid < $1.rowid }
    }
}
