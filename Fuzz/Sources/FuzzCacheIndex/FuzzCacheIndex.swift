import FuzzSupport
import Foundation
import ReelManifest
import ReelStore

/// Rows of the cache index as SQLite could hold them, damaged at random, through what opening a
/// cache does with them in memory: `CacheIndexContents` (decoding, duplicates, the byte total,
/// renumbering), the in-memory `CacheIndex` with its LRU clock, and the counters. No database:
/// the rows are values. A line is a row of `|`-separated values, each a storage class and its
/// text: `i` integer, `r` real, `t` text, `b` blob, `n` null (`i1|tsegment|n`); a line that
/// starts with `c|` is a counter row (name, value).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var entries: [(rowid: Int64, values: [SQLiteValue])] = []
    var counters: [(name: SQLiteValue, value: SQLiteValue)] = []
    for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
        var fields = line.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map(value)
        if fields.first == .text("c"), fields.count >= 3 {
            counters.append((fields[1], fields[2]))
        } else {
            // Short rows are refused as they are; long ones are cut to the columns, to reach the decoders more often.
            if fields.count > CacheIndexRow.columns.count { fields.removeLast(fields.count - CacheIndexRow.columns.count) }
            entries.append((Int64(number), fields))
        }
    }
    let contents = CacheIndexContents(rows: entries)
    check(contents, rows: entries.count)
    exercise(contents)
    let (decoded, damage) = CacheIndexRow.counters(counters)
    for count in [decoded.hits, decoded.misses, decoded.hitBytes, decoded.missBytes] {
        guard (0...CacheIndexRow.maxCounter).contains(count) else { fatalError("a counter out of range: \(count)") }
    }
    // What a process then adds to them: a day of reads at a gigabyte a second.
    _ = decoded.hitBytes + 86_400 << 30
    _ = damage.map(\.description)
    return 0
}

/// One value from its text: the first byte says the storage class.
func value(_ field: ArraySlice<UInt8>) -> SQLiteValue {
    let rest = String(decoding: field.dropFirst(), as: UTF8.self)
    switch field.first {
    case UInt8(ascii: "i"): return Int64(rest).map(SQLiteValue.integer) ?? .text(rest)
    case UInt8(ascii: "r"): return .real(Double(rest) ?? .nan)
    case UInt8(ascii: "t"): return .text(rest)
    case UInt8(ascii: "b"): return .blob(Array(field.dropFirst()))
    case UInt8(ascii: "n"): return .null
    default: return .text(String(decoding: field, as: UTF8.self))
    }
}

/// What the decoder promises the rest of the cache.
func check(_ contents: CacheIndexContents, rows: Int) {
    guard contents.entries.count + contents.dropped.count == rows else {
        fatalError("\(rows) rows became \(contents.entries.count) entries and \(contents.dropped.count) dropped")
    }
    var keys: Set<String> = [], files: Set<String> = [], total: Int64 = 0, previous: Int64 = 0
    for entry in contents.entries {
        guard (0...CacheIndexRow.maxLength).contains(entry.length),
              (1...CacheIndexContents.maxAccess).contains(entry.lastAccess), entry.lastAccess >= previous,
              entry.totalLength.map({ $0 >= entry.length && $0 <= CacheIndexRow.maxLength }) ?? true,
              let generation = entry.file.split(separator: ".").last.flatMap({ Int64($0) }),
              generation <= CacheIndexRow.maxGeneration,
              keys.insert(entry.key).inserted, files.insert(entry.file).inserted else {
            fatalError("an entry the decoder should have refused: \(entry)")
        }
        previous = entry.lastAccess
        total += entry.length
    }
    guard total <= CacheIndexContents.maxTotal else { fatalError("the entries claim \(total) bytes together") }
    for row in contents.dropped { _ = row.damage.description }
}

/// Opening indexes the entries in their order, then a session reads, stores and evicts.
func exercise(_ contents: CacheIndexContents) {
    var index = CacheIndex(capacity: contents.entries.count)
    var generation: Int64 = 0
    for entry in contents.entries {
        index.insert(entry, keepAccessTime: true)
        generation = max(generation, entry.file.split(separator: ".").last.flatMap { Int64($0) } ?? 0)
    }
    let next = generation + 1
    for entry in contents.entries.prefix(64) { _ = index.touch(entry.key) }
    let stored = CacheEntry(key: "https://fuzz.example/new", file: "0123456789abcdef.\(next)", kind: .segment,
                            length: 1 << 20, totalLength: 1 << 20, isComplete: true, checksum: 0, isLive: false,
                            origin: .playback, usedByPlayback: true, lastAccess: 0)
    index.insert(stored)
    while index.totalBytes > 1 << 30, let victim = index.leastRecentlyUsed { index.remove(victim.key) }
    guard index.totalBytes >= 0, index.count <= contents.entries.count + 1 else {
        fatalError("the index holds \(index.count) entries and \(index.totalBytes) bytes")
    }
}
