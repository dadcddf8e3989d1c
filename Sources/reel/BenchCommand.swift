import ArgumentParser
import Foundation
import ReelCore
import ReelFeed
import ReelSim

/// `reel bench`: scoreboards from outside Reel's own world.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Score download policies on public benchmarks.",
        subcommands: [MMGC.self, MMGCPolicy.self]
    )

    /// Where the challenge lives and what it may be used for, for every `--help`.
    static let dataHelp = """
        The data is the ACM MM 2022 Grand Challenge on short-video streaming, read at run time from \
        a checkout of its public repository:

          git clone https://github.com/AItransCompetition/Short-Video-Streaming-Challenge
          reel bench mmgc --data Short-Video-Streaming-Challenge

        The repository carries no licence (all rights reserved), so Reel ships none of its code or \
        data: it reads data/short_video_size (chunk sizes), data/user_ret (retention curves) and \
        data/network_traces/{mixed,high,low,medium} (traces of 'seconds Mbps' rows) from your checkout.
        """

    struct MMGC: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mmgc",
            abstract: "Score a download policy on the MMGC 2022 short-video challenge, beside its baselines and an oracle.",
            discussion: """
                Runs --policy on each trace set with the challenge's own world: its 7 videos in 1 s \
                chunks at 750/1200/1850 kbit/s, its user (each video watched for a time drawn from \
                its retention curve with the challenge's seed, then swiped), its link (one transfer \
                at a time, 95 % of the trace's bandwidth, 80 ms per request) and its score:

                  S = Σ bitrate (Mbit/s) of the chunks watched − 1.85 × rebuffering (s)
                      − Σ bitrate changes (Mbit/s) − 0.5 × Mbit downloaded

                averaged over a set's traces. Beside it: the challenge's baselines (no_save, \
                fixed_preload) and the oracle, which knows every watch time and the whole trace: \
                the best score any policy could reach (exact where its plan replays to the same \
                score, else an upper bound; docs/mmgc.md says why). Per set it prints S, QoE, \
                rebuffering, bitrate changes, bytes downloaded, bytes wasted (downloaded, never \
                watched) and the download/watch time ratio.

                Policies: today (today's feed behaviour under the configuration: read-ahead, preload \
                stages, the prefetch gate and the adaptive rule), scheduler (the link scheduler: \
                retention, stalls, bitrate changes and the byte price weighed together, \
                docs/scheduler.md), reel (whichever scheduler.policy names: today by default; \
                --set scheduler.policy=scheduler), no_save, fixed_preload, oracle. --config/--set \
                change today's and the scheduler's settings (--set scheduler.byteCost=1).

                \(BenchCommand.dataHelp)

                `reel bench mmgc-policy` serves a policy to the challenge's own run.py (bench/mmgc/README.md).
                """)

        @Option(help: ArgumentHelp("The challenge repository's checkout (the folder holding data/).", valueName: "dir"))
        var data: String

        @Option(help: ArgumentHelp("The policy to score: \(MMGCPolicies.names.joined(separator: ", ")).", valueName: "name"))
        var policy = "reel"

        @Option(name: .customLong("traces"), help: ArgumentHelp(
            "Score on this folder of 'seconds Mbps' traces instead of the challenge's four sets (repeatable; a set is named after its folder).",
            valueName: "dir"))
        var traceFolders: [String] = []

        @Option(name: .customLong("user-seed"), help: ArgumentHelp(
            "Draw the user with this seed (0...4294967295), with the challenge's sampling; 42 is the challenge's.", valueName: "n"))
        var userSeed: UInt32 = MMGCUser.challengeSeed

        @Flag(help: "Print the scoreboard as JSON: {\"sets\": [{\"name\", \"policy\", \"baselines\": {\"no_save\", \"fixed_preload\"}, \"oracle\"}]}.")
        var json = false

        @Flag(name: .customLong("per-trace"), help: "Also print every trace's result (tab-separated, after the scoreboard; to stderr with --json).")
        var perTrace = false

        @OptionGroup var options: ConfigOptions
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard MMGCPolicies.names.contains(policy) else {
                throw ValidationError("unknown policy '\(policy)'; use one of \(MMGCPolicies.names.joined(separator: ", "))")
            }
        }

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("bench mmgc") { try await execute() }
        }

        private func execute() async throws {
            let config = try options.resolve()
            let started = ContinuousClock.now
            let folders = traceFolders, root = data
            let loaded: (MMGCDataset, [MMGCTraceSet]) = try await BlockingPool.shared.run {
                let dataset = try MMGCDataset.load(root: root)
                let sets = folders.isEmpty
                    ? try MMGCDataset.challengeTraceSets(root: root)
                    : try folders.map { try MMGCDataset.readTraceSet(folder: $0) }
                return (dataset, sets)
            }
            let (dataset, sets) = loaded
            let user = MMGCUser(seed: userSeed, videos: dataset.videos)
            let reports = try await MMGCBench.run(videos: dataset.videos, sets: sets, policy: policy, user: user, config: config)
            let seconds = (ContinuousClock.now - started).seconds
            if json {
                print(try CLIOutput.json(MMGCBoard(sets: reports.map(\.board))))
            } else {
                print(Self.text(reports, user: user, data: data, seed: userSeed, seconds: seconds))
            }
            if perTrace {
                let lines = Self.perTrace(reports)
                if json { CLIOutput.printToStandardError(lines) } else { print(lines) }
            }
            for line in reports.flatMap(\.aboveOracle) { CLIOutput.printError("warning: above the oracle: \(line)") }
        }

        static func text(_ reports: [MMGCSetReport], user: MMGCUser, data: String, seed: UInt32, seconds: Double) -> String {
            let watch = user.watchMs.map { String(format: "%.0f", $0) }.joined(separator: ", ")
            var lines = ["MMGC 2022 short-video challenge, \(data): user seed \(seed) (watch times \(watch) ms)"]
            let header = ["", "score", "QoE", "rebuf s", "changes", "MB down", "MB wasted", "dl/watch"]
            for report in reports {
                let board = report.board
                lines.append("")
                lines.append("\(report.name) (\(report.oracle.count) trace\(report.oracle.count == 1 ? "" : "s"))")
                var rows = [header]
                var entries = [board.policy, board.baselines.noSave, board.baselines.fixedPreload, board.oracle]
                if report.policyName == "no_save" || report.policyName == "fixed_preload" || report.policyName == "oracle" {
                    entries.removeFirst()
                }
                for entry in entries {
                    let name = entry.name == report.policyName && entry.name != "oracle" ? "\(entry.name) *" : entry.name
                    rows.append([name, f(entry.score), f(entry.qoe), f(entry.rebufferS), f(entry.bitrateChanges),
                                 f(entry.bytesDownloaded / 1e6), f(entry.bytesWasted / 1e6), f(entry.downloadWatchRatio)])
                }
                lines += table(rows)
                lines.append("  oracle: exact on \(report.exactTraces) of \(report.oracle.count) traces (elsewhere an upper bound)")
            }
            let above = reports.flatMap(\.aboveOracle)
            lines.append("")
            lines.append(above.isEmpty ? "No policy scored above the oracle on any trace." : "\(above.count) result(s) above the oracle: see the warnings.")
            lines.append(String(format: "%d traces per policy in %.1f s. * the policy scored (--policy).", reports.reduce(0) { $0 + $1.oracle.count }, seconds))
            return lines.joined(separator: "\n")
        }

        /// Every trace's result, in the columns of the challenge's per-trace figures: policy, set,
        /// trace, score, QoE, bytes, wasted bytes (as the challenge counts them), Σ quality
        /// (kbit/s), Σ rebuffering (ms), Σ changes (kbit/s), downloads, waits.
        static func perTrace(_ reports: [MMGCSetReport]) -> String {
            var lines = ["policy\tset\ttrace\tscore\tqoe\tbytes\twasted\tquality\trebuffer_ms\tchanges\tdownloads\twaits"]
            for report in reports {
                var policies = [("no_save", report.noSave), ("fixed_preload", report.fixedPreload), ("oracle", report.oracle),
                                ("oracle_replay", report.oracleReplay)]
                if !["no_save", "fixed_preload", "oracle"].contains(report.policyName) { policies.insert((report.policyName, report.policy), at: 0) }
                for (name, results) in policies {
                    for result in results {
                        lines.append(String(format: "%@\t%@\t%@\t%.6f\t%.6f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%d\t%d", name, report.name, result.trace,
                                            result.score, result.qoe, result.bytes, result.challengeWastedBytes, result.qualityKbps,
                                            result.rebufferMs, result.changeKbps, result.downloads, result.waits))
                    }
                }
            }
            return lines.joined(separator: "\n")
        }

        static func f(_ value: Double) -> String { value.isFinite ? String(format: "%.3f", value) : "-" }

        /// Rows padded into columns: the first left-aligned, the rest right-aligned.
        static func table(_ rows: [[String]]) -> [String] {
            let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max()! }
            return rows.map { row in
                "  " + row.enumerated().map { column, cell in
                    let pad = String(repeating: " ", count: widths[column] - cell.count)
                    return column == 0 ? cell + pad : pad + cell
                }.joined(separator: "  ")
            }
        }
    }

    /// `reel bench mmgc-policy`: a policy behind the JSON-lines protocol, for the adapter that lets
    /// the challenge's own run.py score it.
    struct MMGCPolicy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mmgc-policy",
            abstract: "Answer the MMGC challenge's decisions over JSON lines (for bench/mmgc/solution.py).",
            discussion: """
                Reads one state per line on stdin and writes one decision per line on stdout, until \
                stdin ends. A state is what the challenge's run.py hands a solution: \
                {"first": bool, "delayMs", "rebufferMs", "chunkBytes", "playing", "queue": [{"index", \
                "downloaded", "levels", "playedMs", "bufferMs", "sizes": [[bytes...] x 3], \
                "retention": [...]}]}; "first": true starts a session with a fresh policy. A decision \
                is {"download": video, "bitrate": level, "sleep": ms} (a download when sleep is 0). A \
                bad line gets {"error": "line N: why"} and the session goes on; the exit status is 2 \
                if any line was refused. bench/mmgc/README.md shows how run.py uses it.

                \(BenchCommand.dataHelp)
                """)

        @Option(help: ArgumentHelp("The policy: \(MMGCPolicies.deciding.joined(separator: ", ")) (the oracle needs what run.py does not tell).",
                                   valueName: "name"))
        var policy = "reel"

        @OptionGroup var options: ConfigOptions
        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("bench mmgc-policy") {
                let server = try MMGCPolicyServer(policy: policy, config: try options.resolve())
                // Reading stdin blocks: the whole exchange runs on a pool thread.
                let refused = try await BlockingPool.shared.run { Self.serve(server) }
                if refused > 0 { throw ReelError(.invalidInput, "\(refused) line(s) refused") }
            }
        }

        /// Answers every line of stdin; returns how many were refused.
        static func serve(_ server: MMGCPolicyServer) -> Int {
            var server = server
            var reader = LineReader(handle: FileHandle.standardInput, maxBytes: MMGCPolicyServer.maxLineBytes)
            var refused = 0
            while let line = reader.next() {
                let reply: (text: String, refused: Bool)
                switch line {
                case .line(let text): reply = server.reply(to: text)
                case .tooLong: reply = (server.refuse("the line is over the limit of \(MMGCPolicyServer.maxLineBytes) bytes"), true)
                }
                if reply.refused { refused += 1 }
                FileHandle.standardOutput.write(Data((reply.text + "\n").utf8))
            }
            return refused
        }
    }
}

/// Lines from a file handle, each at most `maxBytes` (a longer one is reported, not kept).
struct LineReader {
    enum Line {
        case line(String)
        case tooLong
    }

    let handle: FileHandle
    let maxBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    init(handle: FileHandle, maxBytes: Int) {
        self.handle = handle
        self.maxBytes = maxBytes
    }

    mutating func next() -> Line? {
        var skipping = false
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let bytes = buffer[start..<newline]
                start = newline + 1
                if skipping { return .tooLong }
                return .line(String(decoding: bytes, as: UTF8.self))
            }
            if buffer.count - start > maxBytes {
                // Keep nothing of an overlong line: skip to its end.
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if ended {
                guard start < buffer.count || skipping else { return nil }
                let bytes = buffer[start...]
                start = buffer.count
                return skipping ? .tooLong : .line(String(decoding: bytes, as: UTF8.self))
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let chunk = handle.availableData
            if chunk.isEmpty { ended = true } else { buffer += chunk }
        }
    }
}
