import Foundation
import ReelCore
import ReelStore
import ReelManifest
@testable import ReelNet
import ReelTestSupport
import Testing

/// A cache folder is Reel's or it is refused: other files are never deleted, overwritten or
/// joined by Reel's; system folders are refused outright; a refused folder plays on uncached.
@Suite("Cache folder ownership")
struct CacheFolderTests {
    /// Every file and folder under `folder`, with each file's bytes: equal before and after means
    /// nothing was deleted, written or added.
    static func snapshot(_ folder: URL) -> [String: Data?] {
        var result: [String: Data?] = [:]
        for path in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            let url = folder.appendingPathComponent(path)
            let isFile = (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            result[path] = isFile ? FileManager.default.contents(atPath: url.path) : nil
        }
        return result
    }

    static func write(_ text: String, to folder: URL, _ path: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func open(_ directory: URL, warnings: WarningLog) async throws -> Cache {
        try await BlockingPool.shared.run { Cache.open(directory: directory, maxBytes: 1 << 20, logger: warnings.logger()) }
    }

    @Test func aFolderHoldingOtherFilesIsRefusedAndNothingInItChanges() async throws {
        let blob = CacheHarness.bytes(30_000)
        try await CacheHarness.with(["f.bin": blob]) { harness in
            let folder = harness.cacheDirectory
            // What a careless --cache could point at: names Reel's layout uses, holding someone's files.
            try Self.write("notes", to: folder, "notes.txt")
            try Self.write("draft", to: folder, "tmp/draft.txt")
            try Self.write("looks like Reel's", to: folder, "tmp/0123456789abcdef.1.tmp")
            try Self.write("photo", to: folder, "data/01/0123456789abcdef.1")
            try Self.write("mine", to: folder, "lock")
            let before = Self.snapshot(folder)
            let warnings = WarningLog()
            let cache = try await Self.open(folder, warnings: warnings)
            #expect(!cache.isEnabled)
            #expect(warnings.lines.count == 1, "\(warnings.lines)")
            let warning = try #require(warnings.lines.first)
            #expect(warning.contains(folder.path) && warning.contains("Reel did not create"), "\(warning)")
            for _ in 0..<2 {
                let (bytes, metrics) = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("f.bin"), kind: .segment))
                #expect(bytes == blob && !metrics.cacheHit)
            }
            try await CacheHarness.close(cache)
            #expect(Self.snapshot(folder) == before)
            #expect(warnings.lines.count == 1)
            #expect(throws: ReelError.self) { try Cache.openOrThrow(directory: folder, maxBytes: 1 << 20) }
            #expect(Self.snapshot(folder) == before)
        }
    }

    /// System folders are recognised without touching them (a test that opened a cache in `/etc`
    /// would, on a regression, write there), symbolic links resolved; cache folders are not.
    @Test func systemFoldersAreRecognisedAndCacheFoldersAreNot() throws {
        let scratch = try makeScratchFolder("reel-system")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let link = scratch.appendingPathComponent("etc-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc")
        for path in ["/", "/etc", "/etc/", "/etc/ssl/certs", "/usr/share", "/proc/self", "/var/lib", "/home", "/tmp",
                     "/root", "/home/someone", "\(link)", "\(link)/reel", "/usr/../etc/x"] {
            #expect(CacheFolder.systemFolderReason(path, home: "/home/someone") != nil, "\(path) was not refused")
        }
        for path in [scratch.appendingPathComponent("cache").path, "/var/cache/reel", "/home/someone/.cache/reel",
                     "/tmp/reel-cache", "/etcetera/cache", "/usrdata/cache"] {
            #expect(CacheFolder.systemFolderReason(path, home: "/home/someone") == nil, "\(path) was refused")
        }
    }

    @Test(arguments: ["/etc/reel-cache-never/deeper", "/usr/share/reel-cache-never", "/var/lib/reel-cache-never"])
    func aFolderInsideASystemFolderIsRefusedAndNotCreated(path: String) async throws {
        #expect(!FileManager.default.fileExists(atPath: path))
        let warnings = WarningLog()
        let cache = try await Self.open(URL(fileURLWithPath: path), warnings: warnings)
        #expect(!cache.isEnabled)
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("refused"), "\(warnings.lines)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent + "/CACHEDIR.TAG"))
        try await CacheHarness.close(cache)
    }

    @Test func anEmptyOrMissingFolderIsAdoptedAndMarked() async throws {
        let scratch = try makeScratchFolder("reel-adopt")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for folder in [scratch, scratch.appendingPathComponent("new/deeper")] {
            let warnings = WarningLog()
            let cache = try await Self.open(folder, warnings: warnings)
            #expect(cache.isEnabled && warnings.lines.isEmpty, "\(warnings.lines)")
            try await CacheHarness.close(cache)
            let marker = try String(contentsOf: folder.appendingPathComponent("CACHEDIR.TAG"), encoding: .utf8)
            #expect(marker.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n") && marker.contains("Reel disk cache"))
            let again = try await Self.open(folder, warnings: warnings)
            #expect(again.isEnabled && warnings.lines.isEmpty, "\(warnings.lines)")
            try await CacheHarness.close(again)
        }
    }

    @Test func aCacheFromBeforeMarkersIsAdoptedWithItsEntries() async throws {
        let blob = CacheHarness.bytes(20_000)
        try await CacheHarness.with(["a.bin": blob]) { harness in
            let cache = try await harness.openCache()
            _ = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("a.bin"), kind: .segment))
            try await CacheHarness.settle(cache)
            try await CacheHarness.close(cache)
            try FileManager.default.removeItem(at: harness.cacheDirectory.appendingPathComponent("CACHEDIR.TAG"))
            let warnings = WarningLog()
            let reopened = try await harness.openCache(warnings: warnings)
            #expect(reopened.isEnabled && reopened.entries.count == 1 && warnings.lines.isEmpty, "\(warnings.lines)")
            #expect(FileManager.default.fileExists(atPath: harness.cacheDirectory.appendingPathComponent("CACHEDIR.TAG").path))
            try await CacheHarness.close(reopened)
        }
    }

    @Test func filesOthersPutInAReelFolderAreNeverRemoved() async throws {
        let blob = CacheHarness.bytes(20_000)
        try await CacheHarness.with(["a.bin": blob]) { harness in
            let folder = harness.cacheDirectory
            let cache = try await harness.openCache()
            _ = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("a.bin"), kind: .segment))
            try await CacheHarness.settle(cache)
            let shard = try #require(contentFiles(folder).first).deletingLastPathComponent().lastPathComponent
            // A content-like name whose first two digits are not its shard's is not Reel's (one
            // whose digits match is an orphan of Reel's own: the shard comes from the port's hash).
            let otherDigits = shard == "ff" ? "00" : "ff"
            let foreign = ["data/\(shard)/notes.txt", "data/\(shard)/\(otherDigits)ffffffffffffff.9", "data/zz/keep.bin",
                           "tmp/keep.txt", "tmp/fedcba9876543210.3.txt", "readme"]
            for path in foreign { try Self.write(path, to: folder, path) }
            // Leftovers of Reel's own: a content file no row names (removed by a repair) and a
            // partial download (removed when the cache next opens).
            let orphan = "data/\(shard)/\(shard)0123456789abcd.4"
            try Self.write("orphan", to: folder, orphan)
            try Self.write("partial", to: folder, "tmp/0123456789abcdef.7.tmp")
            let verified = try await BlockingPool.shared.run { cache.verify(repair: true) }
            #expect(verified.orphanFiles == 1 && verified.removed == 1)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(orphan).path))
            try await BlockingPool.shared.run { try cache.clear() }
            try await CacheHarness.close(cache)
            let reopened = try await harness.openCache()
            try await CacheHarness.close(reopened)
            for path in foreign {
                #expect(FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) == Data(path.utf8), "\(path) changed")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tmp/0123456789abcdef.7.tmp").path))
        }
    }

    @Test func filesBeingWrittenCountTowardTheCapAndAResourcePastItStopsOnlyItself() async throws {
        let big = CacheHarness.bytes(3_000_000, seed: 7)
        let small = CacheHarness.bytes(50_000, seed: 8)
        try await CacheHarness.with(["big.bin": big, "small.bin": small]) { harness in
            let cap: Int64 = 600_000
            let warnings = WarningLog()
            let cache = try await harness.openCache(maxBytes: cap, warnings: warnings)
            let tmp = harness.cacheDirectory.appendingPathComponent("tmp")
            // Read the big resource in steps and look at tmp/ between them: never past the cap.
            let largest = try await BlockingPool.shared.run { () -> Int64 in
                let source = harness.factory(cache).makeDataSource(cancellation: Cancellation())
                defer { source.close() }
                _ = try source.open(DataSpec(url: harness.url("big.bin"), kind: .segment))
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                var largest: Int64 = 0
                var received: [UInt8] = []
                while true {
                    let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                    if count == 0 { break }
                    received += buffer[..<count]
                    let inTmp = (FileManager.default.subpaths(atPath: tmp.path) ?? []).reduce(Int64(0)) { total, name in
                        let size = (try? FileManager.default.attributesOfItem(atPath: tmp.appendingPathComponent(name).path)[.size]) as? NSNumber
                        return total + (size?.int64Value ?? 0)
                    }
                    largest = max(largest, inTmp)
                }
                #expect(received == big)
                return largest
            }
            #expect(largest <= cap, "tmp/ held \(largest) bytes with a \(cap)-byte cap")
            try await CacheHarness.settle(cache)
            #expect(cache.entries.isEmpty)
            // Writes go on for what fits.
            _ = try await CacheHarness.read(harness.factory(cache), DataSpec(url: harness.url("small.bin"), kind: .segment))
            try await CacheHarness.settle(cache)
            #expect(cache.entries.count == 1)
            #expect(warnings.lines.isEmpty, "\(warnings.lines)")
            try await CacheHarness.close(cache)
        }
    }
}

/// The order a sealed entry becomes durable in: fsync of the file, rename into `data/`, fsync of
/// the shard folder, and only then the index row (a crash between rename and row leaves an
/// orphan file, never a row whose rename a power loss undid).
@Suite("Cache durability")
struct CacheDurabilityTests {
    /// Records each call, and whether the index already names the key at the folder sync.
    final class RecordingFileSystem: CacheFileSystem {
        let steps = Locked<[String]>([])
        let cache = Locked<Cache?>(nil)
        let key: String

        init(key: String) { self.key = key }

        func sync(_ descriptor: Int32, path: String) throws {
            steps.withLock { $0.append("sync file") }
            try PosixCacheFileSystem().sync(descriptor, path: path)
        }

        func rename(_ from: String, to: String) throws {
            steps.withLock { $0.append("rename") }
            try PosixCacheFileSystem().rename(from, to: to)
        }

        func syncDirectory(_ folder: String) throws {
            let indexed = cache.withLock { $0?.peek(key) != nil }
            steps.withLock { $0.append(indexed ? "sync folder (row written)" : "sync folder") }
            try PosixCacheFileSystem().syncDirectory(folder)
        }
    }

    @Test func theShardFolderIsSyncedAfterTheRenameAndBeforeTheIndexRow() async throws {
        let blob = CacheHarness.bytes(20_000)
        try await CacheHarness.with(["d.bin": blob]) { harness in
            let spec = DataSpec(url: harness.url("d.bin"), kind: .segment)
            let fileSystem = RecordingFileSystem(key: spec.cacheKey)
            let directory = harness.cacheDirectory
            let cache = try await BlockingPool.shared.run {
                try Cache.openOrThrow(directory: directory, maxBytes: 1 << 20, fileSystem: fileSystem)
            }
            fileSystem.cache.withLock { $0 = cache }
            _ = try await CacheHarness.read(harness.factory(cache), spec)
            try await CacheHarness.settle(cache)
            #expect(fileSystem.steps.withLock { $0 } == ["sync file", "rename", "sync folder"])
            #expect(cache.peek(spec.cacheKey)?.isComplete == true)
            fileSystem.cache.withLock { $0 = nil }
            try await CacheHarness.close(cache)
        }
    }

    /// Holds the first file sync until `release`, and says on `entered` when it got there: a
    /// commit queue that lags behind the downloads, as on a busy machine.
    final class HeldFileSystem: CacheFileSystem {
        let entered: AsyncStream<Void>
        private let enteredContinuation: AsyncStream<Void>.Continuation
        private let gate = DispatchSemaphore(value: 0)
        private let held = Locked(false)

        init() { (entered, enteredContinuation) = AsyncStream.makeStream() }

        func release() { gate.signal() }

        func sync(_ descriptor: Int32, path: String) throws {
            let first = held.withLock { wasHeld in defer { wasHeld = true }; return !wasHeld }
            if first {
                enteredContinuation.yield()
                gate.wait()
            }
            try PosixCacheFileSystem().sync(descriptor, path: path)
        }

        func rename(_ from: String, to: String) throws { try PosixCacheFileSystem().rename(from, to: to) }
        func syncDirectory(_ folder: String) throws { try PosixCacheFileSystem().syncDirectory(folder) }
    }

    /// A download whose bytes were all written is kept when the disk fills (another write fails)
    /// before its seal runs; nothing started after the failure is kept. Its seal used to be
    /// dropped, so a prefetch on a busy machine stored nothing of what fit.
    @Test func aFileWrittenWholeBeforeTheDiskFilledIsKeptThoughItsSealRunsAfter() async throws {
        let files = (0..<3).map { CacheHarness.bytes(20_000, seed: UInt64($0 + 3)) }
        try await CacheHarness.with(["0.bin": files[0], "1.bin": files[1], "2.bin": files[2]]) { harness in
            let fileSystem = HeldFileSystem()
            let directory = harness.cacheDirectory
            let cache = try await BlockingPool.shared.run {
                try Cache.openOrThrow(directory: directory, maxBytes: 1 << 20, fileSystem: fileSystem)
            }
            let specs = (0..<3).map { DataSpec(url: harness.url("\($0).bin"), kind: .segment) }
            // The first file's seal holds the commit queue; the second is downloaded whole
            // behind it, then a write fails, then the queue goes on.
            #expect(try await CacheHarness.read(harness.factory(cache), specs[0]).0 == files[0])
            var entered = fileSystem.entered.makeAsyncIterator()
            _ = await entered.next()
            #expect(try await CacheHarness.read(harness.factory(cache), specs[1]).0 == files[1])
            cache.writeFailed(ReelError(.cacheIO, "writing a cache file failed: No space left on device (disk full)"))
            fileSystem.release()
            try await CacheHarness.settle(cache)
            #expect(cache.peek(specs[1].cacheKey)?.isComplete == true)
            #expect(try await CacheHarness.read(harness.factory(cache), specs[2]).0 == files[2])
            try await CacheHarness.settle(cache)
            #expect(cache.peek(specs[2].cacheKey) == nil)
            #expect(cache.writeFailure?.contains("No space left") == true)
            try await CacheHarness.close(cache)
            let reopened = try await BlockingPool.shared.run { try Cache.openOrThrow(directory: directory, maxBytes: 1 << 20) }
            #expect(reopened.peek(specs[0].cacheKey)?.isComplete == true && reopened.peek(specs[1].cacheKey)?.isComplete == true)
            try await CacheHarness.close(reopened)
        }
    }
}
