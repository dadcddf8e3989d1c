import Foundation
import ReelCore
import ReelFeed
import ReelServer
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The disk cache as the `reel` tool uses it: the cap, crash safety, a full disk, the bill,
/// `reel cache stats|verify|clear`.
@Suite("reel cache and the disk cache under reel play")
struct CacheCommandTests {
    @Test func afterFetchingFiveTimesTheCapTheFolderIsWithinIt() async throws {
        let cache = try makeScratchFolder("reel-cap")
        defer { try? FileManager.default.removeItem(at: cache) }
        let cap = 1_500_000
        try await withSampleServer { server in
            let urls = SampleIndex.all.map { server.url(for: $0.entry).absoluteString }
            let result = try await ReelProcess.run(["prefetch"] + urls + ["--segments", "100", "--cache", cache.path,
                                                                    "--cache-max-bytes", String(cap), "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let fetched = try CacheCLI.json(result.stdout)["fetchedBytes"] as? Int ?? 0
            #expect(fetched >= 5 * cap, "fetched only \(fetched) bytes")
        }
        #expect(folderSize(cache) <= cap, "the cache folder holds \(folderSize(cache)) bytes, over the \(cap)-byte cap")
        let stats = try CacheCLI.json(try await ReelProcess.run(["cache", "stats", "--cache", cache.path, "--json",
                                                            "--cache-max-bytes", String(cap)]).stdout)
        #expect((stats["entries"] as? Int ?? 0) > 0)
        #expect((stats["bytes"] as? Int ?? 0) + (stats["indexBytes"] as? Int ?? 0) <= cap)
    }

    @Test func aSIGKILLInTheMiddleOfCacheWritesLeavesAVerifiableCache() async throws {
        let cache = try makeScratchFolder("reel-sigkill")
        defer { try? FileManager.default.removeItem(at: cache) }
        let sample = try #require(SampleIndex.all.first { $0.name == "s01" })
        // Files someone else put into the folder Reel made: the sweep after the SIGKILL keeps them.
        #expect(try await ReelProcess.run(["cache", "stats", "--cache", cache.path]).status == 0)
        let foreign = ["data/ab/notes.txt", "tmp/notes.txt", "data/0f/0fffffffffffffff.1.bak"]
        for path in foreign {
            let url = cache.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }
        defer {
            for path in foreign {
                #expect(FileManager.default.contents(atPath: cache.appendingPathComponent(path).path) == Data(path.utf8), "\(path)")
            }
        }
        try await withSampleServer { server in
            let url = server.url(for: sample.entry).absoluteString
            let segment = "/" + sample.entry.replacingOccurrences(of: "index.m3u8", with: "seg_001.ts")
            // The second segment stalls halfway and the low-speed watchdog is off for the run, so
            // the process is caught with one entry sealed and one being written, whatever the load.
            server.injectFault(.stall(afterBytes: 40_000), path: segment, count: 1)
            let running = try await ReelProcess.start(["prefetch", url, "--segments", "7", "--cache", cache.path,
                                                       "--set", "network.lowSpeedTimeMs=3600000"])
            // The simulator has sent the segment's first 40,000 bytes and stalls: its headers went
            // first, so the process has its temporary file open and is waiting for the rest.
            let ready = await server.waitForBill {
                $0.paths[segment].map { $0.inFlightRequests > 0 && $0.bodyBytes >= 40_000 } ?? false
            } != nil
            guard ready, running.process.isRunning else {
                if running.process.isRunning { kill(running.pid, SIGKILL) }
                let early = await running.finish()
                Issue.record("no stalled transfer was seen before reel prefetch ended: \(early.status) \(early.stdout) \(early.stderr); bill \(server.bill().paths[segment].map { "\($0)" } ?? "none")")
                return
            }
            kill(running.pid, SIGKILL)
            let ended = await running.finish()
            #expect(ended.status == SIGKILL, "the process was not killed: \(ended.status)")
            let verify = try await ReelProcess.run(["cache", "verify", "--cache", cache.path, "--json"])
            #expect(verify.status == 0, "verify after SIGKILL: \(verify.stdout) \(verify.stderr)")
            let report = try CacheCLI.json(verify.stdout)
            #expect(report["clean"] as? Bool == true)
            print("after SIGKILL: \(report["checked"] as? Int ?? 0) entries checked, all clean")
            let play = try await ReelProcess.run(["play", url, "--framemd5", "--fast", "--cache", cache.path])
            #expect(play.status == 0, "\(play.stderr)")
            let rendition = try #require(sample.renditions.first)
            let reference = try SampleIndex.referenceHashes(rendition.reference)
            #expect(CacheCLI.hashes(play.stdout) == reference)
        }
    }

    @Test func theBillEqualsWhatTheClientReceivedWithTheCacheOffAndOn() async throws {
        let cache = try makeScratchFolder("reel-bill")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await withSampleServer { server in
            let url = server.url(for: "streams/s02/index.m3u8").absoluteString
            func play(_ extra: [String]) async throws -> [String: Any] {
                server.resetBill()
                let result = try await ReelProcess.run(["play", url, "--fast", "--json"] + extra + PatientNetwork.arguments)
                #expect(result.status == 0, "\(result.stderr)")
                return try CacheCLI.json(result.stdout)["network"] as? [String: Any] ?? [:]
            }
            let off = try await play(["--no-cache"])
            #expect(server.bill().bodyBytes == off["bytes"] as? Int)
            #expect(off["cacheHitBytes"] as? Int == 0)
            let cold = try await play(["--cache", cache.path])
            #expect(server.bill().bodyBytes == (cold["bytes"] as? Int ?? -1) - (cold["cacheHitBytes"] as? Int ?? 0))
            #expect(cold["bytes"] as? Int == off["bytes"] as? Int)
            let warm = try await play(["--cache", cache.path])
            #expect(server.bill().bodyBytes == 0, "a warm cache still went to the network")
            #expect(warm["cacheHitBytes"] as? Int == warm["bytes"] as? Int)
            let requests = warm["perRequest"] as? [[String: Any]] ?? []
            #expect(!requests.isEmpty && requests.allSatisfy { $0["cacheHit"] as? Bool == true })
        }
    }

    @Test func aFourGProfileDelaysTheFirstFrameByItsLatencyPerRequest() async throws {
        func play(_ profile: NetworkProfile) async throws -> [String: Any] {
            try await withSampleServer(profile: profile) { server in
                let result = try await ReelProcess.run(["play", server.url(for: "streams/s01/index.m3u8").absoluteString,
                                                            "--frames", "10", "--fast", "--json", "--no-cache"])
                #expect(result.status == 0, "\(result.stderr)")
                return try CacheCLI.json(result.stdout)
            }
        }
        let unlimited = try await play(.unlimited)
        let fourG = try await play(.fourG)
        let latency = Double(NetworkProfile.fourG.latencyMilliseconds)
        func ms(_ report: [String: Any], _ phase: String? = nil) -> Double {
            guard let phase else { return report["ttffMs"] as? Double ?? 0 }
            return (report["phases"] as? [String: Any])?[phase] as? Double ?? 0
        }
        print("TTFF unlimited \(ms(unlimited)) ms (manifest \(ms(unlimited, "manifestMs")), open \(ms(unlimited, "openMs"))); "
              + "4g \(ms(fourG)) ms (manifest \(ms(fourG, "manifestMs")), open \(ms(fourG, "openMs")))")
        // Before the first frame the playlist is fetched (manifest phase), then the first segment
        // (open phase), one after the other; on 4g each waits out the latency. Lower bounds, so a
        // busy machine cannot make them fail; comparing with the unlimited run's TTFF could.
        #expect(ms(fourG, "manifestMs") >= latency, "4g manifest phase \(ms(fourG, "manifestMs")) ms")
        #expect(ms(fourG, "openMs") >= latency, "4g open phase \(ms(fourG, "openMs")) ms")
        #expect(ms(fourG) >= 2 * latency, "4g TTFF \(ms(fourG)) ms")
        let first = fourG["network"].flatMap { ($0 as? [String: Any])?["firstRequest"] as? [String: Any] }
        #expect((first?["firstByteMs"] as? Double ?? 0) >= latency)
    }

    @Test func aFullDiskPlaysOnWithoutCachingAfterOneWarning() async throws {
        let cache = try makeScratchFolder("reel-full")
        defer { try? FileManager.default.removeItem(at: cache) }
        let sample = try #require(SampleIndex.all.first { $0.name == "s01" })
        try await withSampleServer { server in
            let url = server.url(for: sample.entry).absoluteString
            // RLIMIT_FSIZE of 100 KiB: the first write past it fails (EFBIG), as a full disk would.
            let command = "trap '' XFSZ; ulimit -f 100; exec \"$0\" \"$@\""
            let arguments = ["-c", command, PackagePaths.reelBinary.path, "play", url, "--framemd5", "--fast",
                             "--cache", cache.path]
            let (status, stdout, stderr) = try await ShellRun.run("/bin/bash", arguments)
            #expect(status == 0, "\(stderr)")
            let warnings = stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
            #expect(warnings.count == 1 && warnings[0].contains("cache"), "\(stderr)")
            let rendition = try #require(sample.renditions.first)
            let reference = try SampleIndex.referenceHashes(rendition.reference)
            #expect(CacheCLI.hashes(stdout) == reference)
        }
        let verify = try await ReelProcess.run(["cache", "verify", "--cache", cache.path, "--json"])
        let verified = try CacheCLI.json(verify.stdout)
        #expect(verify.status == 0 && verified["clean"] as? Bool == true, "\(verify.stdout + verify.stderr)")
    }

    @Test func statsVerifyRepairAndClear() async throws {
        let cache = try makeScratchFolder("reel-commands")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await withSampleServer { server in
            let url = server.url(for: "streams/s11/index.m3u8").absoluteString
            for _ in 0..<2 {
                let result = try await ReelProcess.run(["play", url, "--fast", "--cache", cache.path])
                #expect(result.status == 0, "\(result.stderr)")
            }
        }
        let stats = try CacheCLI.json(try await ReelProcess.run(["cache", "stats", "--cache", cache.path, "--json"]).stdout)
        let entries = stats["entries"] as? Int ?? 0
        #expect(entries == 4, "\(stats)")  // playlist + 3 segments
        #expect(stats["hits"] as? Int == entries && stats["misses"] as? Int == entries)
        #expect(stats["hitRatio"] as? Double == 0.5)
        #expect(stats["partialEntries"] as? Int == 0)
        let human = try await ReelProcess.run(["cache", "stats", "--cache", cache.path])
        #expect(human.stdout.contains("4 entries") && human.stdout.contains("hit ratio 50.0%"), "\(human.stdout)")

        // Damage one content file: verify names it and exits 6 until repaired.
        let file = try #require(contentFilesIn(cache).first)
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count / 2] ^= 0x40
        try Data(bytes).write(to: file)
        let bad = try await ReelProcess.run(["cache", "verify", "--cache", cache.path, "--json"])
        #expect(bad.status == 6, "\(bad.stderr)")
        let badReport = try CacheCLI.json(bad.stdout)
        #expect((badReport["bad"] as? [[String: Any]])?.count == 1 && badReport["clean"] as? Bool == false)
        #expect(bad.stderr.contains("--repair"), "\(bad.stderr)")
        let repair = try await ReelProcess.run(["cache", "verify", "--repair", "--cache", cache.path, "--json"])
        let repaired = try CacheCLI.json(repair.stdout)
        #expect(repair.status == 0 && repaired["removed"] as? Int == 1, "\(repair.stdout)")
        let clean = try await ReelProcess.run(["cache", "verify", "--cache", cache.path])
        #expect(clean.status == 0)

        let clear = try CacheCLI.json(try await ReelProcess.run(["cache", "clear", "--cache", cache.path, "--json"]).stdout)
        #expect(clear["entries"] as? Int == entries - 1)
        let after = try CacheCLI.json(try await ReelProcess.run(["cache", "stats", "--cache", cache.path, "--json"]).stdout)
        #expect(after["entries"] as? Int == 0 && after["bytes"] as? Int == 0 && after["hits"] as? Int == 0)
        #expect(contentFilesIn(cache).isEmpty)
    }

    @Test func aCacheFolderThatCannotBeCreatedIsAWarningForPlayAndAnErrorForTheCacheCommands() async throws {
        let scratch = try makeScratchFolder("reel-unusable")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let folder = file.appendingPathComponent("cache").path
        try await withSampleServer { server in
            let result = try await ReelProcess.run(["play", server.url(for: "streams/s11/index.m3u8").absoluteString,
                                              "--fast", "--cache", folder])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(folder), "\(result.stderr)")
        }
        let stats = try await ReelProcess.run(["cache", "stats", "--cache", folder])
        #expect(stats.status == 6 && stats.stderr.contains(folder), "\(stats.stderr)")
    }

    @Test func playPointedAtAFolderOfOtherFilesOrASystemFolderPlaysOnAndChangesNothing() async throws {
        let scratch = try makeScratchFolder("reel-foreign")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (path, text) in [("notes.txt", "notes"), ("tmp/draft.txt", "draft"), ("data/ab/photo.jpg", "photo"), ("lock", "mine")] {
            let url = scratch.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let before = FileManager.default.subpaths(atPath: scratch.path)?.sorted()
        try await withSampleServer { server in
            let url = server.url(for: "streams/s11/index.m3u8").absoluteString
            // Folders inside system folders that do not exist: a regression would create them, not
            // damage what is there (CacheFolderTests checks that /etc, / and the home folder are refused).
            for folder in [scratch.path, "/etc/reel-cache-never", "/usr/lib/reel-cache-never"] {
                let result = try await ReelProcess.run(["play", url, "--fast", "--frames", "30", "--cache", folder])
                #expect(result.status == 0, "\(result.stderr)")
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].contains(folder) && lines[0].contains("refused"), "\(result.stderr)")
            }
        }
        #expect(FileManager.default.subpaths(atPath: scratch.path)?.sorted() == before)
        #expect(try String(contentsOf: scratch.appendingPathComponent("lock"), encoding: .utf8) == "mine")
        #expect(!FileManager.default.fileExists(atPath: "/etc/reel-cache-never"))
        #expect(!FileManager.default.fileExists(atPath: "/usr/lib/reel-cache-never"))
        let stats = try await ReelProcess.run(["cache", "clear", "--cache", scratch.path])
        #expect(stats.status == 6 && stats.stderr.contains(scratch.path), "\(stats.stderr)")
        #expect(FileManager.default.subpaths(atPath: scratch.path)?.sorted() == before)
    }

    /// Apparent bytes of every file under `folder` (index, lock, content, temporary files).
    func folderSize(_ folder: URL) -> Int {
        let paths = FileManager.default.subpaths(atPath: folder.path) ?? []
        return paths.reduce(0) { total, path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { return total }
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}

/// Content files under a cache folder's `data/`.
func contentFilesIn(_ folder: URL) -> [URL] {
    let data = folder.appendingPathComponent("data")
    return (FileManager.default.subpaths(atPath: data.path) ?? [])
        .map { data.appendingPathComponent($0) }
        .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
}

/// Runs a program other than `reel` (a shell that sets limits first), with a cache home of its own.
enum ShellRun {
    static func run(_ executable: String, _ arguments: [String]) async throws -> (Int32, String, String) {
        let home = FileManager.default.temporaryDirectory.path + "/reel-xdg-shell"
        let result = try await ChildProcess.run(URL(fileURLWithPath: executable), arguments, environment: ["XDG_CACHE_HOME": home])
        return (result.status, result.stdout, result.stderr)
    }
}
