import Foundation
import ReelServer
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A cache folder on a full disk or a read-only mount: real ones, a small tmpfs in a mount
/// namespace of the test's own (a root process writes through chmod, so only a mount makes a
/// folder read-only). What the cache holds still plays offline, `cache clear` frees a full disk,
/// and prefetch lists what it could not store and exits with status 6.
@Suite("reel with a full or read-only cache folder")
struct CacheReadOnlyTests {
    static let s01 = "streams/s01/index.m3u8"
    static let s11 = "streams/s11/index.m3u8"

    @Test func aPrefetchThatFillsTheDiskListsWhatItCouldNotStoreAndWhatItStoredPlaysOffline() async throws {
        let sample = try #require(SampleIndex.all.first { $0.name == "s01" })
        let results = try await withSampleServer { server in
            let url = server.url(for: Self.s01).absoluteString
            // Seven segments of about 125 KB do not fit in 512 KiB with the index.
            return try await SmallDisk.run(kib: 512, [
                .reel("prefetch", ["prefetch", url, "--segments", "7", "--json"]),
                .reel("verify", ["cache", "verify", "--json"]),
                .reel("play", ["play", url, "--offline", "--framemd5", "--fast"]),
            ])
        }
        let prefetch = try #require(results["prefetch"])
        #expect(prefetch.status == 6, "exit \(prefetch.status): \(prefetch.stderr)")
        let summary = try CacheCLI.json(prefetch.stdout)
        let failures = try #require(summary["failures"] as? [[String: Any]])
        let failure = try #require(failures.first, "no failure listed: \(prefetch.stdout)")
        #expect(failure["code"] as? String == "cacheIO")
        // The content file or the index row: whichever write met the full disk first.
        let message = failure["message"] as? String ?? ""
        #expect(message.contains("No space left") || message.contains("disk is full"), "\(failure)")
        let notStored = (failure["notStored"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
        #expect(notStored.last?.hasSuffix("seg_006.ts") == true, "\(notStored)")
        let stored = 7 - notStored.filter { $0.hasSuffix(".ts") }.count
        #expect(stored >= 1 && stored < 7, "\(stored) of 7 segments stored; not stored: \(notStored); \(prefetch.stdout)\(prefetch.stderr)")
        // Segments download side by side: one may be stored past another the full disk refused,
        // and offline play ends at the first segment the cache lacks.
        let playable = (0..<7).first { index in notStored.contains { $0.hasSuffix(String(format: "seg_%03d.ts", index)) } } ?? 7
        try #require(playable >= 1, "the first segment was not stored: \(notStored)")
        let verify = try #require(results["verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(try CacheCLI.json(verify.stdout)["clean"] as? Bool == true, "\(verify.stdout)")
        let play = try #require(results["play"])
        #expect(play.status == 0, "\(play.stderr)")
        let rendition = try #require(sample.renditions.first)
        let expected = try CacheCLI.referenceFrames(rendition.reference, seconds: Double(2 * playable))
        let frames = CacheCLI.hashes(play.stdout)
        #expect(frames == expected, "offline play: \(frames.count) frames, the first \(playable) stored segments hold \(expected.count); not stored: \(notStored); \(play.stderr)")
    }

    @Test func onAFullDiskTheCacheOpensReadOnlyAndClearFreesIt() async throws {
        let sample = try #require(SampleIndex.all.first { $0.name == "s01" })
        let results = try await withSampleServer { server in
            let (url, other) = (server.url(for: Self.s01).absoluteString, server.url(for: Self.s11).absoluteString)
            return try await SmallDisk.run(kib: 1024, [
                .reel("prefetch", ["prefetch", url, "--segments", "2"]),
                .fill,
                .reel("play", ["play", url, "--offline", "--framemd5", "--fast"]),
                .reel("stats", ["cache", "stats", "--json"]),
                .reel("prefetch-more", ["prefetch", other, "--json"]),
                .reel("clear", ["cache", "clear", "--json"]),
                .reel("after", ["cache", "stats", "--json"]),
            ])
        }
        #expect(results["prefetch"]?.status == 0, "\(results["prefetch"]?.stderr ?? "")")
        let play = try #require(results["play"])
        #expect(play.status == 0, "\(play.stderr)")
        let warnings = play.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1 && warnings[0].contains("read-only") && warnings[0].contains("no space"), "\(play.stderr)")
        let rendition = try #require(sample.renditions.first)
        #expect(CacheCLI.hashes(play.stdout) == (try CacheCLI.referenceFrames(rendition.reference, seconds: 4)))
        let stats = try CacheCLI.json(try #require(results["stats"]).stdout)
        #expect(stats["entries"] as? Int == 3 && stats["readOnly"] is String, "\(stats)")
        try Self.expectNotStored(try #require(results["prefetch-more"]), items: 2)
        let clear = try #require(results["clear"])
        #expect(clear.status == 0, "\(clear.stderr)")
        #expect(try CacheCLI.json(clear.stdout)["entries"] as? Int == 3)
        let after = try CacheCLI.json(try #require(results["after"]).stdout)
        #expect(after["entries"] as? Int == 0 && after["bytes"] as? Int == 0, "\(after)")
        #expect(after["readOnly"] is NSNull, "the cleared disk has room again: \(after)")
    }

    @Test func aReadOnlyCacheFolderServesWhatItHoldsAndRefusesToChange() async throws {
        let sample = try #require(SampleIndex.all.first { $0.name == "s01" })
        let results = try await withSampleServer { server in
            let (url, other) = (server.url(for: Self.s01).absoluteString, server.url(for: Self.s11).absoluteString)
            return try await SmallDisk.run(kib: 2048, [
                .reel("prefetch", ["prefetch", url, "--segments", "2"]),
                .readOnly,
                .reel("play", ["play", url, "--offline", "--framemd5", "--fast"]),
                .reel("verify", ["cache", "verify", "--json"]),
                .reel("prefetch-more", ["prefetch", other, "--json"]),
                .reel("clear", ["cache", "clear"]),
            ])
        }
        #expect(results["prefetch"]?.status == 0, "\(results["prefetch"]?.stderr ?? "")")
        let play = try #require(results["play"])
        #expect(play.status == 0, "\(play.stderr)")
        let warnings = play.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1 && warnings[0].contains("read-only"), "\(play.stderr)")
        let rendition = try #require(sample.renditions.first)
        #expect(CacheCLI.hashes(play.stdout) == (try CacheCLI.referenceFrames(rendition.reference, seconds: 4)))
        let verify = try #require(results["verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(try CacheCLI.json(verify.stdout)["checked"] as? Int == 3, "\(verify.stdout)")
        try Self.expectNotStored(try #require(results["prefetch-more"]), items: 2)
        let clear = try #require(results["clear"])
        #expect(clear.status == 6, "exit \(clear.status)")
        #expect(clear.stderr.contains("cannot clear") && clear.stderr.contains("Read-only file system"), "\(clear.stderr)")
    }

    /// A prefetch into a cache that stores nothing: exit 6, the input's manifest and segment listed.
    static func expectNotStored(_ result: SmallDisk.Result, items: Int) throws {
        #expect(result.status == 6, "exit \(result.status): \(result.stderr)")
        let summary = try CacheCLI.json(result.stdout)
        let failure = try #require((summary["failures"] as? [[String: Any]])?.first, "\(result.stdout)")
        #expect(failure["code"] as? String == "cacheIO")
        #expect((failure["notStored"] as? [Any])?.count == items, "\(failure)")
        #expect(result.stderr.contains("could not be stored"), "\(result.stderr)")
    }
}

/// Runs `reel` commands in a mount namespace of their own where the cache folder is a small tmpfs:
/// a real full disk (ENOSPC) and, remounted read-only, a real read-only folder (EROFS). The mount
/// ends with the namespace, whatever happens to the test.
enum SmallDisk {
    enum Step {
        /// `reel` with these arguments and `--cache` the small disk; its output kept under `name`.
        case reel(String, [String])
        /// Fills the disk with a file of zeros.
        case fill
        /// Remounts the disk read-only.
        case readOnly
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `steps` in order on a fresh tmpfs of `kib` KiB; each `reel` step's result by name.
    static func run(kib: Int, _ steps: [Step]) async throws -> [String: Result] {
        let scratch = try makeScratchFolder("reel-small-disk")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let disk = scratch.appendingPathComponent("cache"), out = scratch.appendingPathComponent("out")
        for folder in [disk, out] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var script = """
            set -u
            mount -t tmpfs -o size=\(kib)k reel-small-disk \(quoted(disk.path)) || exit 97
            step() { name=$1; shift; "$@" >\(quoted(out.path))/"$name".out 2>\(quoted(out.path))/"$name".err; echo $? >\(quoted(out.path))/"$name".status; }

            """
        var names: [String] = []
        for step in steps {
            switch step {
            case .reel(let name, let arguments):
                names.append(name)
                let command = [PackagePaths.reelBinary.path] + arguments + ["--cache", disk.path]
                script += "step \(quoted(name)) \(command.map(quoted).joined(separator: " "))\n"
            case .fill:
                script += "dd if=/dev/zero of=\(quoted(disk.path + "/filler")) bs=4k 2>/dev/null; true\n"
            case .readOnly:
                script += "mount -o remount,ro \(quoted(disk.path)) || exit 98\n"
            }
        }
        // Root makes a namespace outright; another user needs one of its own first.
        let user = getuid() == 0 ? [] : ["--user", "--map-root-user"]
        let shell = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                               user + ["--mount", "--propagation", "private", "/bin/bash", "-c", script],
                                               environment: ["XDG_CACHE_HOME": scratch.appendingPathComponent("xdg").path])
        #expect(shell.status == 0, "the small disk could not be set up (exit \(shell.status)): \(shell.output)")
        var results: [String: Result] = [:]
        for name in names {
            func read(_ suffix: String) -> String? {
                try? String(contentsOf: out.appendingPathComponent("\(name).\(suffix)"), encoding: .utf8)
            }
            let status = try #require(read("status").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
                                      "step \(name) did not run: \(shell.output)")
            results[name] = Result(status: status, stdout: read("out") ?? "", stderr: read("err") ?? "")
        }
        return results
    }
}
