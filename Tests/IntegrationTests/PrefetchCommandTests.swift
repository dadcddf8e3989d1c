import Foundation
import ReelCore
import ReelFeed
import ReelServer
import ReelTestSupport
import Testing

/// `reel prefetch` with the prefetcher's options: `--concurrency` against the simulator's peak
/// connections, `--category` and `--rank`, the ledger in `--json` against the bill, failing
/// inputs, and the progress line on a terminal.
@Suite("reel prefetch with the prefetcher")
struct PrefetchCommandTests {
    static let names = ["s01", "s05", "s07", "s11", "s13"]

    static func urls(_ server: CDNServer) -> [String] {
        names.map { server.url(for: "streams/\($0)/index.m3u8").absoluteString }
    }

    @Test(arguments: [1, 3])
    func concurrencyCapsTheConnectionsAndTheLedgerMatchesTheBill(concurrency: Int) async throws {
        let cache = try makeScratchFolder("reel-prefetch-cap")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await withSampleServer(profile: NetworkProfile(name: "throttled", bandwidthKbps: 4_000)) { server in
            let result = try await ReelProcess.run(["prefetch"] + Self.urls(server) + [
                "--segments", "2", "--concurrency", String(concurrency), "--cache", cache.path, "--json"] + PatientNetwork.arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try CacheCLI.json(result.stdout)
            let bill = server.bill()
            #expect(bill.peakConcurrentConnections <= concurrency, "--concurrency \(concurrency) exceeded: \(bill.peakConcurrentConnections)")
            #expect(bill.peakConcurrentConnections == concurrency, "the transfers never overlapped up to the cap")
            #expect(summary["concurrency"] as? Int == concurrency)
            #expect(summary["category"] as? String == "imminent")
            #expect(summary["fetchedBytes"] as? Int == bill.bodyBytes)
            let ledger = try #require(summary["ledger"] as? [String: Any])
            #expect(ledger["fetchedBytes"] as? Int == bill.bodyBytes, "the ledger and the bill disagree: \(ledger)")
            #expect(ledger["queued"] as? Int == 5 && ledger["started"] as? Int == 5 && ledger["completed"] as? Int == 5)
            #expect(ledger["usedBytes"] as? Int == 0 && ledger["unreadBytes"] as? Int == bill.bodyBytes)
            #expect(ledger["wastedBytes"] as? Int == bill.bodyBytes && ledger["evictedUnreadBytes"] as? Int == 0)
            #expect((summary["inputs"] as? [[String: Any]])?.compactMap { $0["url"] as? String } == Self.urls(server))
            #expect((summary["failures"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func inputsRunInRankOrderAndTheCategoryPicksTheSegmentCount() async throws {
        let cache = try makeScratchFolder("reel-prefetch-order")
        defer { try? FileManager.default.removeItem(at: cache) }
        let paths = Locked<[String]>([])
        let configuration = CDNServerConfiguration(root: PackagePaths.samples, requestLog: { entry in
            paths.withLock { $0.append(entry.path) }
        })
        try await withServer(configuration) { server in
            let urls = Self.urls(server)
            let result = try await ReelProcess.run(["prefetch"] + urls + [
                "--concurrency", "1", "--category", "background", "--rank", "10", "--cache", cache.path, "--json",
                "--set", "prefetch.segments.background=3"])
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try CacheCLI.json(result.stdout)
            #expect(summary["category"] as? String == "background")
            for input in summary["inputs"] as? [[String: Any]] ?? [] {
                let kinds = (input["items"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
                #expect(kinds.filter { $0 == "segment" }.count == 3, "\(input["url"] ?? "?"): \(kinds)")
            }
            // One at a time, in command-line order.
            var order: [String] = []
            for path in paths.withLock({ $0 }) {
                let name = path.split(separator: "/").dropFirst().first.map(String.init) ?? ""
                if order.last != name { order.append(name) }
            }
            #expect(order == Self.names)
        }
    }

    @Test func aFailingInputIsReportedAndTheOthersArePrefetched() async throws {
        let cache = try makeScratchFolder("reel-prefetch-fail")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await withSampleServer { server in
            let good = server.url(for: "streams/s01/index.m3u8").absoluteString
            let missing = server.url(for: "streams/none/index.m3u8").absoluteString
            let result = try await ReelProcess.run(["prefetch", missing, good, "--cache", cache.path, "--json"])
            #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(missing), "\(result.stderr)")
            let summary = try CacheCLI.json(result.stdout)
            #expect((summary["inputs"] as? [[String: Any]])?.compactMap { $0["url"] as? String } == [good])
            let failures = try #require(summary["failures"] as? [[String: Any]])
            #expect(failures.count == 1 && failures.first?["url"] as? String == missing && failures.first?["code"] as? String == "notFound")
            #expect((summary["ledger"] as? [String: Any])?["failed"] as? Int == 1)
        }
        // Alone, an unreachable input is one line on stderr and exit 3, as before.
        let unreachable = try await ReelProcess.run(["prefetch", "http://127.0.0.1:1/v/index.m3u8", "--cache", cache.path,
                                                         "--set", "network.maxRetries=0", "--set", "prefetch.retries=0"])
        #expect(unreachable.status == 3, "exit \(unreachable.status): \(unreachable.stderr)")
        #expect(unreachable.stdout.isEmpty)
        #expect(unreachable.stderr.contains("127.0.0.1:1"))
    }

    @Test(arguments: [["--concurrency", "0"], ["--concurrency", "65"], ["--category", "soon"], ["--segments", "-1"]])
    func badOptionsAreUsageErrors(options: [String]) async throws {
        let result = try await ReelProcess.run(["prefetch", "http://127.0.0.1:1/a.m3u8"] + options)
        #expect(result.status == 2, "a usage error: exit \(result.status) for \(options): \(result.stderr)")
        #expect(result.stderr.contains(options[0]), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func onATerminalOneLineShowsTheProgress() async throws {
        let cache = try makeScratchFolder("reel-prefetch-tty")
        defer { try? FileManager.default.removeItem(at: cache) }
        let script = "/usr/bin/script"
        #expect(FileManager.default.isExecutableFile(atPath: script), "the terminal test needs \(script) (Debian bsdutils)")
        try await withSampleServer { server in
            let command = ([PackagePaths.reelBinary.path, "prefetch"] + Self.urls(server) + ["--cache", cache.path])
                .map { "'\($0)'" }.joined(separator: " ")
            // `script` runs the command on a pseudo-terminal, so stdout is a tty.
            let result = try await Self.run(script, ["-qec", command, "/dev/null"])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("\r\u{1B}[Kprefetch: 5/5 (5 done, 0 failed), 0 running"), "\(result.output)")
            #expect(result.output.contains("Total: fetched"))
            // Without a terminal there is no progress line.
            let piped = try await ReelProcess.run(["prefetch"] + Self.urls(server) + ["--cache", cache.path])
            #expect(!piped.stdout.contains("\r") && piped.stdout.contains("Total: fetched 0 B"), "\(piped.stdout)")
        }
    }

    /// Runs a program to its end; its stdout and stderr together.
    static func run(_ program: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(URL(fileURLWithPath: program), arguments)
        return (result.status, result.output)
    }
}
