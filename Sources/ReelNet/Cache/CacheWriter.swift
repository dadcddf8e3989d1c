import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
import ReelManifest
#endif

/// Writes one resource into the cache the atomic way: bytes go to a temporary file under `tmp/`
/// as they arrive (hashed on the way); `seal` fsyncs it and renames it into `data/`, and only then
/// does the cache add the index row. A crash at any point leaves either no row (the file is an
/// orphan, swept at the next start) or a row whose length and checksum match the file.
/// Used by one thread at a time (the transfer's puller, then the cache's commit queue).
// @unchecked Sendable: never shared, only handed over: the transfer takes it out under its
// `condition` lock once pulling has stopped, then the cache's serial commit queue alone seals it.
final class CacheWriter: DataSink, @unchecked Sendable {
    let key: String
    let kind: ResourceKind
    /// The content file name the bytes will have once sealed.
    let name: String
    let temporaryPath: String
    let finalPath: String
    private var fd: Int32
    private(set) var length: Int64 = 0
    private var hasher = XXHash64()
    /// The bytes so far when they may be a playlist (a `.playlist` or `.media` resource that
    /// starts like text), up to 32 MiB: the cache reads liveness from them when sealing.
    private(set) var capturedText: [UInt8]?
    /// Asks the cache for room for more temporary bytes (false: they would pass the cap); the
    /// bytes are given back with `release` when the file is sealed or dropped.
    private let reserve: (Int64) -> Bool
    private let release: (Int64) -> Void
    private let fileSystem: any CacheFileSystem

    init(directory: String, key: String, kind: ResourceKind, generation: Int64, fileSystem: any CacheFileSystem = .posix,
         reserve: @escaping (Int64) -> Bool = { _ in true }, release: @escaping (Int64) -> Void = { _ in }) throws {
        self.key = key
        self.kind = kind
        self.fileSystem = fileSystem
        self.reserve = reserve
        self.release = release
        name = CacheFiles.contentName(key: key, generation: generation)
        temporaryPath = CacheFiles.temporaryPath(directory, name)
        finalPath = CacheFiles.contentPath(directory, name)
        fd = try CacheFiles.create(temporaryPath)
        if kind == .playlist || kind == .media { capturedText = [] }
    }

    deinit { abandon() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw ReelError(.internalFailure, "write to a closed cache file '\(temporaryPath)'") }
        guard reserve(Int64(bytes.count)) else {
            throw ReelError(.cacheFull, "'\(key)' would pass the cache's size limit after \(length) bytes; it is not kept")
        }
        length += Int64(bytes.count)
        try CacheFiles.writeAll(fd, bytes, path: temporaryPath)
        hasher.update(bytes)
        if capturedText != nil { capture(bytes, at: length - Int64(bytes.count)) }
    }

    private func capture(_ bytes: UnsafeRawBufferPointer, at length: Int64) {
        if length == 0, let first = bytes.first, ![UInt8(ascii: "#"), UInt8(ascii: "<"), 0xEF, 0x20, 0x0A, 0x0D, 0x09].contains(first) {
            capturedText = nil
        } else if length + Int64(bytes.count) > 32 << 20 {
            capturedText = nil
        } else {
            capturedText?.append(contentsOf: bytes)
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// A new descriptor on the temporary file for a reader that follows the transfer; it stays
    /// valid after the file is renamed or removed. -1 when the file is closed.
    func duplicateDescriptor() -> Int32 {
        fd >= 0 ? dup(fd) : -1
    }

    /// The checksum of the bytes written so far.
    var checksum: UInt64 { hasher.digest() }

    /// fsync, close, rename into `data/`. Returns the checksum of what the file holds.
    func seal() throws -> UInt64 {
        guard fd >= 0 else { throw ReelError(.internalFailure, "sealing a closed cache file '\(temporaryPath)'") }
        defer {
            Glibc.close(fd)
            fd = -1
            release(length)
        }
        try fileSystem.sync(fd, path: temporaryPath)
        let folder = (finalPath as NSString).deletingLastPathComponent
        try CacheFiles.makeDirectory(folder)
        try fileSystem.rename(temporaryPath, to: finalPath)
        // The rename is durable before the cache writes the row that names the file.
        try fileSystem.syncDirectory(folder)
        return hasher.digest()
    }

    /// `seal` without the fsync: for bulk imports that accept losing the file (never getting a
    /// torn one: the rename is atomic and the checksum is checked on every read).
    func sealWithoutSync() throws -> UInt64 {
        guard fd >= 0 else { throw ReelError(.internalFailure, "sealing a closed cache file '\(temporaryPath)'") }
        defer {
            Glibc.close(fd)
            fd = -1
            release(length)
        }
        try CacheFiles.makeDirectory((finalPath as NSString).deletingLastPathComponent)
        try fileSystem.rename(temporaryPath, to: finalPath)
        return hasher.digest()
    }

    /// Drops the temporary file.
    func abandon() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
        CacheFiles.remove(temporaryPath)
        release(length)
    }
}
