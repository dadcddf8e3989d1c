import ReelCore

/// How the disk cache names its content files: the XXH64 of the cache key and a generation
/// (`3fa9c2e1d0b4a7f6.42`), so no URL or other input ever becomes part of a path. The index's
/// rows are checked against it; `CacheFiles` (ReelNet) places the files.
package enum CacheFileName {
    /// The content file name for `key` at `generation`.
    package static func content(key: String, generation: Int64) -> String {
        let hash = XXHash64.hash(key)
        var hex = String(hash, radix: 16)
        if hex.count < 16 { hex = String(repeating: "0", count: 16 - hex.count) + hex }
        return "\(hex).\(generation)"
    }

    /// True for names `content(key:generation:)` makes (16 hex digits, a dot, a decimal generation).
    package static func isContent(_ name: String) -> Bool {
        var index = 0
        for byte in name.utf8 {
            let ok = switch index {
            case ..<16: (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102)
            case 16: byte == UInt8(ascii: ".")
            default: byte >= 48 && byte <= 57
            }
            guard ok else { return false }
            index += 1
        }
        return index >= 18
    }

    /// True for `name` in `data/<shard>/`: a content name whose first two digits are the shard's.
    package static func isContent(_ name: String, inShard shard: String) -> Bool {
        isContent(name) && name.utf8.prefix(2).elementsEqual(shard.utf8)
    }

    /// True for names `temporaryPath` makes (a content name and `.tmp`): the only files Reel
    /// removes from `tmp/`.
    package static func isTemporary(_ name: String) -> Bool {
        name.hasSuffix(".tmp") && isContent(String(name.dropLast(4)))
    }

    /// The generation part of a content name.
    package static func generation(of name: String) -> Int64? {
        guard isContent(name), let dot = name.firstIndex(of: ".") else { return nil }
        return Int64(name[name.index(after: dot)...])
    }
}
