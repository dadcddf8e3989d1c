import ArgumentParser
import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelHarness
import ReelServer

/// `reel demo`: the main job on the bundled samples, prefetch on against prefetch off.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the default scroll trace through the whole engine twice, prefetch on and off, and write the report (what `make demo` runs).",
        discussion: """
            Serves the samples folder with the CDN simulator on 127.0.0.1 (4g profile), runs the \
            default scroll trace (the first 29 s of Samples/traces/mixed.jsonl) in real time through the feed \
            session, then again with prefetch off (reel feed run --compare prefetch=off), prints \
            both summaries side by side and writes into the output folder: report.html (both runs \
            on one page), events.jsonl and events-b.jsonl (every event of each run) and \
            summary.json (the comparison as --json prints it).
            """)

    @Option(help: ArgumentHelp("The samples folder to serve (default: Samples here, else the installed samples).", valueName: "dir"))
    var samples: String?

    @Option(help: ArgumentHelp("The folder to write the report, the events and the summary into.", valueName: "dir"))
    var output = "reel-demo"

    @Option(help: ArgumentHelp("Network profile of the simulator: wifi, 4g, 3g (or unlimited).", valueName: "name"))
    var profile = "4g"

    @OptionGroup var options: ConfigOptions

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        try await CLIOutput.run("demo") { try await execute() }
    }

    private func execute() async throws {
        let network = try NetworkProfile.parse(profile, allowOffline: false)
        let samples = try self.samples ?? Installed.samplesFolder(option: "--samples DIR")
        let root = URL(fileURLWithPath: samples, isDirectory: true)
        let catalogPath = root.appendingPathComponent("video-feed.json").path
        let tracePath = root.appendingPathComponent(ScrollTrace.defaultFile).path
        guard FileManager.default.fileExists(atPath: catalogPath), FileManager.default.fileExists(atPath: tracePath) else {
            throw ReelError(.invalidInput, "'\(root.path)' is not Reel's samples folder (no video-feed.json or traces/mixed.jsonl); pass --samples DIR")
        }
        let folder = URL(fileURLWithPath: output, isDirectory: true)
        try OutputPaths.folder(folder, for: "the demo's report, events and summary")
        let origin = try FeedOrigin.serve(path: samples, profile: network)
        let override = "prefetch=off"
        let resolution = try origin.configuration(options.sources)
        let withoutPrefetch = try origin.configuration(options.sources, override: override).config
        var request = FeedRunRequest(catalog: try FeedCatalog.load(path: catalogPath), trace: try ScrollTrace.load(path: tracePath).cut(after: ScrollTrace.defaultSeconds),
                                     origin: origin)
        let interruption = Interruption()
        let line = LiveLine.onTerminal(json: false)
        request.stop = interruption.stop
        request.onProgress = { progress in line.show(FeedRunText.progress(progress)) }
        print("Running the first \(Int(ScrollTrace.defaultSeconds)) s of \(tracePath) twice in real time, prefetch on (a) and off (b), \(origin)...\n")
        let (a, b) = try await FeedComparison.runs(request, a: resolution.config, b: withoutPrefetch, override: override)
        line.finish()
        let runs = [a] + (b.map { [$0] } ?? [])
        for run in runs {
            for warning in Set(run.warnings).sorted() { ConfigOptions.warn("\(run.title): \(warning)") }
        }
        let summary = b.map { FeedComparison(a: a, b: $0, override: override).json } ?? a.summary.json
        _ = try await FeedRunFiles.write(runs, events: folder.appendingPathComponent("events.jsonl").path,
                                         report: folder.appendingPathComponent("report.html").path,
                                         summary: (folder.appendingPathComponent("summary.json").path, summary))
        print(FeedRunText.header(request, runs: runs))
        print(SessionSummary.table(runs.map { ($0.title, $0.summary) }))
        let events = folder.appendingPathComponent("events.jsonl").path
        print("""

            Report:  \(folder.appendingPathComponent("report.html").path)  (open it in a browser)
            Events:  \(events) (a)\(b == nil ? "" : ", \(folder.appendingPathComponent("events-b.jsonl").path) (b)")
            Summary: \(folder.appendingPathComponent("summary.json").path)
            Check the play rules: reel feed check-events \(events)
            """)
        try interruption.exitIfInterrupted()
    }
}
