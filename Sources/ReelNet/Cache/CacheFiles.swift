import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
import ReelStore
#endif

/// The cache folder's layout and the POSIX calls that read and write it. Content files are named
/// by the XXH64 of the cache key and a generation (`data/3f/3fa9c2e1d0b4a7f6.42`), so no URL or
/// other input ever becomes part of a path and nothing can reach outside the folder.
///
///     <dir>/index.sqlite (+ -wal, -shm)   the index (CacheIndexStore)
///     <dir>/lock                          flock'ed by the process using the cache; holds its pid
///     <dir>/data/<2 hex>/<16 hex>.<gen>   content files, fsync'ed before they are renamed here
///     <dir>/tmp/                          files being written; emptied when the cache opens
enum CacheFiles {
    static let indexName = "index.sqlite"
    static let lockName = "lock"

    static func contentName(key: String, generation: Int64) -> String { CacheFileName.content(key: key, generation: generation) }
    static func isContentName(_ name: String) -> Bool { CacheFileName.isContent(name) }
    static func isContentName(_ name: String, inShard shard: String) -> Bool { CacheFileName.isContent(name, inShard: shard) }
    static func isTemporaryName(_ name: String) -> Bool { CacheFileName.isTemporary(name) }
    static func generation(of name: String) -> Int64? { CacheFileName.generation(of: name) }

    /// `data/<first two hex digits>/<name>` under `directory`.
    static func contentPath(_ directory: String, _ name: String) -> String {
        "\(directory)/data/\(name.prefix(2))/\(name)"
    }

    /// `tmp/<name>.tmp` under `directory`, where a content file is written before it is sealed.
    static func temporaryPath(_ directory: String, _ name: String) -> String {
        "\(directory)/tmp/\(name).tmp"
    }

    // MARK: POSIX

    /// The errno text, with the usual causes of a failing cache spelled out.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT: return "\(text) (disk full)"
        case EACCES, EPERM, EROFS: return "\(text) (not writable)"
        default: return text
        }
    }

    /// True for the causes that make a folder readable but not writable: a full disk or quota,
    /// a read-only mount, missing permission.
    static func meansNotWritable(_ code: Int32) -> Bool {
        [ENOSPC, EDQUOT, EROFS, EACCES, EPERM].contains(code)
    }

    /// Why the file system holding `path` takes no writes, when it says so (SQLite's errors do
    /// not): read-only, or no room left. Nil when neither shows.
    static func writeHint(_ path: String) -> String? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        if info.f_flag & UInt(ST_RDONLY) != 0 { return "the file system is read-only" }
        let free = Int64(clamping: info.f_bavail) * Int64(clamping: info.f_frsize)
        if free == 0 { return "no space is left on the disk" }
        if free < 1 << 20 { return "only \(free) bytes are free on the disk" }
        return nil
    }

    static func error(_ action: String, _ path: String, _ code: Int32 = errno) -> ReelError {
        ReelError(.cacheIO, "cannot \(action) '\(path)': \(reason(code))")
    }

    /// Creates `path` and its parents; succeeds when it already is a directory.
    static func makeDirectory(_ path: String) throws {
        if Glibc.mkdir(path, 0o755) == 0 { return }
        let code = errno
        if code == EEXIST {
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw ReelError(.cacheIO, "cannot use '\(path)' as a cache folder: it is not a directory")
        }
        if code == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && parent != path {
                try makeDirectory(parent)
                if Glibc.mkdir(path, 0o755) == 0 || errno == EEXIST { return }
            }
        }
        throw error("create", path, code)
    }

    /// Opens `path` for writing, creating or truncating it.
    static func create(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw error("create", path) }
        return fd
    }

    /// Writes all of `bytes` at the descriptor's offset.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw error("write", path)
            }
            if written == 0 { throw error("write", path, ENOSPC) }
            offset += written
        }
    }

    static func sync(_ fd: Int32, path: String) throws {
        guard fsync(fd) == 0 else { throw error("fsync", path) }
    }

    /// Makes a rename or a new file inside `directory` durable. The corresponding C function is
    /// `fsync` on the folder.
    static func syncDirectory(_ directory: String) throws {
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw error("open", directory) }
        defer { Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw error("fsync", directory) }
    }

    static func rename(_ from: String, to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw error("rename to", to) }
    }

    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Removes `path`; throws when it exists and cannot be removed (a read-only folder).
    static func removeOrThrow(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw error("remove", path) }
    }

    /// Reads up to `count` bytes at `offset`; returns how many were read (0 at the end).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, path: String) throws -> Int {
        while true {
            let count = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw error("read", path)
        }
    }

    /// The whole file, refusing one whose size is not `expected` (a truncated or grown file).
    static func readWhole(_ path: String, expected: Int64) throws -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw error("open", path) }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error("stat", path) }
        guard Int64(info.st_size) == expected else {
            throw ReelError(.cacheCorrupt, "cache file '\(path)' has \(info.st_size) bytes, the index says \(expected)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(expected))
        var offset = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while offset < buffer.count {
                let count = try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]), at: Int64(offset), path: path)
                if count == 0 { break }
                offset += count
            }
        }
        guard offset == Int(expected) else {
            throw ReelError(.cacheCorrupt, "cache file '\(path)' ended after \(offset) of \(expected) bytes")
        }
        return bytes
    }

    /// The size of a file, 0 when it does not exist.
    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Names in a folder (empty when it cannot be listed).
    static func list(_ directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    /// Every content file under `data/`, as (name, path, size). Only names Reel makes, in the
    /// shard their hash puts them in: a file someone else put there is never listed, so never removed.
    static func contentFiles(_ directory: String) -> [(name: String, path: String, size: Int64)] {
        var result: [(String, String, Int64)] = []
        for shard in list("\(directory)/data") {
            for name in list("\(directory)/data/\(shard)") where isContentName(name, inShard: shard) {
                let path = "\(directory)/data/\(shard)/\(name)"
                result.append((name, path, size(of: path)))
            }
        }
        return result
    }
}
