import ArgumentParser
import Foundation
import ReelCore
import ReelFeed
import ReelMedia
import ReelNet
import ReelServer

struct StressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Stress the decoder pool: cards mount, play, pause and unmount at random over the samples.",
        discussion: """
            Serves the samples folder with the CDN simulator on 127.0.0.1, then runs N cards for S \
            seconds: each mounts a random sample (opens it, takes a decoder from the pool, buffers), \
            plays and pauses it a few times, unmounts, and starts over. All cards share one decoder \
            pool of K decoders. Prints the reuse ratio, acquire latency, decoder counters, frames, \
            errors and the process's RSS at start, middle and end; a live progress line when \
            standard output is a terminal.

            Exit status: 0 when there was no error, every invariant held (never more decoders \
            than the pool size, never two holders of one decoder, nothing held after the last \
            unmount) and RSS at the end stayed within 10% + 8 MB of RSS at the middle (the first \
            half is warm-up); 1 otherwise; 2 for bad options.
            """)

    @Option(help: "Cards mounting, playing, pausing and unmounting at once (2: the card playing and the next one, as a feed of shorts scrolls).")
    var widgets = 2

    @Option(help: "Decoders in the pool. Default: decoder.poolSize (decoder.lowEndPoolSize on a low-end device).")
    var pool: Int?

    @Option(help: "How long to run, in seconds.")
    var seconds: Double = 60

    @Option(help: "Seed of the cards' random choices.")
    var seed: UInt64 = 42

    @Option(help: "Network profile of the simulator: unlimited, wifi, 4g, 3g.")
    var profile = "wifi"

    @Option(help: "The samples folder to serve (default: Samples here, else the installed samples).")
    var samples: String?

    @Flag(help: "Print one JSON object instead of the human summary.")
    var json = false

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if widgets < 1 { throw ValidationError("--widgets must be at least 1 (got \(widgets))") }
        if let pool, !(1...64).contains(pool) { throw ValidationError("--pool must be in 1...64 (got \(pool))") }
        if !(seconds > 0) { throw ValidationError("--seconds must be more than 0 (got \(seconds))") }
    }

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        try await CLIOutput.run("stress") { try await execute() }
    }

    private func execute() async throws {
        let settings = try config.resolve()
        let networkProfile = try NetworkProfile.parse(profile, allowOffline: false)
        let samples = try self.samples ?? Installed.samplesFolder(option: "--samples DIR")
        let root = URL(fileURLWithPath: samples, isDirectory: true).standardizedFileURL
        let catalogPath = root.appendingPathComponent("video-feed.json").path
        guard FileManager.default.fileExists(atPath: catalogPath) else {
            throw ReelError(.invalidInput, "'\(root.path)' is not Reel's samples folder (no video-feed.json); pass --samples DIR")
        }
        let catalog = try FeedCatalog.load(path: catalogPath)
        var options = StressOptions(config: settings)
        options.widgets = widgets
        if let pool { options.poolSize = pool }
        options.duration = .milliseconds(Int64(seconds * 1000))
        options.seed = seed
        var stackOptions = ReelStack.Options()
        stackOptions.cache = .none
        stackOptions.remembersEstimate = false
        let report = try await ReelStack.with(config: settings, options: stackOptions) { stack in
            try await withServer(CDNServerConfiguration(root: root, profile: networkProfile)) { server in
                await stress(options, inputs: catalog.entries.map { server.url(for: $0.url) }, server: server, factory: stack.network)
            }
        }
        print(json ? try CLIOutput.json(report) : StressSummary.text(report))
        guard report.passed else {
            var reasons: [String] = []
            if report.errors > 0 { reasons.append("\(report.errors) players failed") }
            reasons += report.invariantBreaches
            if report.leak {
                reasons.append(String(format: "RSS grew to %.1f MB after warm-up (limit %.1f MB)", report.rss.endMB, report.rss.limitMB))
            }
            throw ReelError(.internalFailure, "stress run failed: " + reasons.joined(separator: "; "))
        }
    }
}

extension StressCommand {
    /// Runs the cards against the served samples, with a live line on a terminal.
    private func stress(_ base: StressOptions, inputs: [URL], server: CDNServer, factory: URLDataSourceFactory) async -> StressReport {
        var options = base
        options.inputs = inputs
        let live = !json && isatty(STDOUT_FILENO) != 0
        if !json {
            print("Stress: \(options.widgets) cards, pool \(options.poolSize), \(Human.seconds(seconds)), seed \(seed), "
                  + "\(inputs.count) videos served at \(server.baseURL.absoluteString) (\(server.profile))")
        }
        let show: @Sendable (StressProgress) -> Void = { StressSummary.progress($0) }
        let progress = live ? show : nil
        let report = await StressRun(options: options, factory: factory).run(progress: progress)
        if live { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        return report
    }
}

/// Prints a stress run for people.
enum StressSummary {
    static func progress(_ p: StressProgress) {
        let line = String(
            format: "\r\u{1B}[K%5.1f/%.0f s  cards %d (playing %d)  acquires %d  reuse %.1f%%  waits %d  preempted %d  frames %d  errors %d  RSS %.0f MB",
            p.elapsed.seconds, p.duration.seconds, p.mounted, p.playing, p.pool.acquires, p.pool.reuseRatio * 100,
            p.pool.waits, p.pool.preemptions, p.frames, p.errors, p.rssMB)
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    static func text(_ r: StressReport) -> String {
        var lines: [String] = []
        let c = r.cards
        lines.append("Cards: \(c.mounts) mounts, \(c.plays) plays, \(c.pauses) pauses, \(c.unmounts) unmounts, \(c.ended) played to the end; \(r.frames) frames decoded")
        let d = r.decoders
        lines.append("Decoders: \(d.created) created, \(d.reused) reused, \(d.reconfigured) reconfigured, \(d.evicted) evicted (at most \(d.maxLive) alive); \(r.waits) waits, \(r.preemptions) preemptions")
        lines.append(String(format: "Reuse %.1f%% of %d acquires (%.1f%% after warm-up); acquire p50 %@ p99 %@ max %@; with a matching idle decoder p99 %@",
                            r.reuseRatio * 100, r.acquires, r.reuseRatioAfterWarmUp * 100, Human.ms(r.acquireMs.p50),
                            Human.ms(r.acquireMs.p99), Human.ms(r.acquireMs.max), Human.ms(r.idleMatchAcquireMs.p99)))
        lines.append("TTFF p50 \(Human.ms(r.ttffMs.p50)) p99 \(Human.ms(r.ttffMs.p99)); stalls \(r.stalls), rebuffers \(r.rebuffers)")
        lines.append(String(format: "RSS start %.1f MB, middle %.1f MB, end %.1f MB (limit %.1f MB), peak %.1f MB; after warm-up %.1f-%.1f MB, trend %+.2f MB/min",
                            r.rss.startMB, r.rss.midMB, r.rss.endMB, r.rss.limitMB, r.rss.peakMB,
                            r.rss.afterWarmUpMinMB, r.rss.afterWarmUpMaxMB, r.rss.trendMBPerMinute))
        var verdict = "Errors \(r.errors)"
        verdict += r.invariantBreaches.isEmpty ? "; invariants held" : "; invariants broken: " + r.invariantBreaches.joined(separator: "; ")
        verdict += r.leak ? "; RSS grew past the limit" : "; no leak"
        lines.append(verdict)
        for message in r.errorMessages.prefix(5) { lines.append("  \(message)") }
        return lines.joined(separator: "\n")
    }
}

extension Human {
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
