import ArgumentParser
import Foundation
import OrderedCollections
import ReelCore
import ReelEngine
import ReelFeed
import ReelHarness
import ReelReport
import ReelServer

/// `reel feed`: build the feed from a catalog, replay a scroll trace through visibility.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Build the feed, replay a scroll trace through visibility or the whole engine, check or report a session's events.",
        subcommands: [Build.self, Visibility.self, Run.self, Simulate.self, Sweep.self, CheckEvents.self, Report.self]
    )

    /// Options shared by the feed subcommands.
    struct FeedOptions: ParsableArguments {
        @Option(help: ArgumentHelp("The feed catalog (default: feed.catalogPath).", valueName: "file"))
        var feed: String?

        @Option(help: ArgumentHelp("Screen size in points (default: device.screenWidth x device.screenHeight).", valueName: "WxH"))
        var screen: String?

        func validate() throws {
            if let screen, Size(parsing: screen) == nil {
                throw ValidationError("--screen must be WIDTHxHEIGHT in points, such as 390x844; got '\(screen)'")
            }
        }

        func catalog(_ config: ReelConfig) throws -> FeedCatalog {
            let path = try feed ?? Installed.sample(config.feed.catalogPath, option: "--feed FILE")
            let catalog = try FeedCatalog.load(path: path)
            if let warning = catalog.warning { ConfigOptions.warn(warning) }
            return catalog
        }

        func size(_ config: ReelConfig) -> Size {
            screen.flatMap(Size.init(parsing:)) ?? Size(screenOf: config)
        }
    }

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the feed's widgets, their frames and the pages they came in.")

        @OptionGroup var options: ConfigOptions
        @OptionGroup var feed: FeedOptions

        @Option(help: "Build only the first N pages (default: all).")
        var pages: Int?

        @Flag(help: "Print {widgets: [...], pages: [...]} as JSON.")
        var json = false

        func validate() throws {
            if let pages, pages < 1 { throw ValidationError("--pages must be at least 1") }
        }

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed build") { try execute() }
        }

        private func execute() throws {
            let config = try options.resolve()
            let api = FeedAPI(catalog: try feed.catalog(config), config: config)
            if api.isEndless && pages == nil {
                throw ReelError(.invalidInput, "the feed loops without end (pagination.loopCatalog with pagination.maxWidgets 0): give --pages N")
            }
            let build = FeedBuild(api: api, config: config, screen: feed.size(config), pages: pages)
            if json {
                print(CLIOutput.jsonText(build.json))
                return
            }
            let model = build.model
            let layout = build.layout
            for record in model.pages {
                print("page \(record.index): \(record.widgets.count) widget\(record.widgets.count == 1 ? "" : "s")")
                for index in record.widgets {
                    let item = model.items[index]
                    let frame = layout.frames[index]
                    let type = item.type?.rawValue ?? "collapsed"
                    let detail: String = switch item.content {
                    case .short(let short)?: "\(short.video.id) \(short.video.aspectRatio)  \"\(short.title)\""
                    case .carousel(let carousel)?: carousel.videos.map(\.id).joined(separator: " ")
                    case .merch(let merch)?: merch.imageURL
                    case nil: item.failure ?? ""
                    }
                    let id = item.id.padding(toLength: 8, withPad: " ", startingAt: 0)
                    let kind = type.padding(toLength: 9, withPad: " ", startingAt: 0)
                    print("  \(String(index).leftPadded(5))  \(id) \(kind) y=\(JSONWriter.number(frame.y.rounded())) h=\(JSONWriter.number(frame.height.rounded()))  \(detail)")
                }
            }
            let counts = Dictionary(grouping: model.items, by: { $0.type?.rawValue ?? "collapsed" }).mapValues(\.count)
            let summary = ["short", "carousel", "merch", "collapsed"].compactMap { key in counts[key].map { "\($0) \(key)" } }.joined(separator: ", ")
            print("\(model.count) widgets\(summary.isEmpty ? "" : " (\(summary))") in \(model.pages.count) page\(model.pages.count == 1 ? "" : "s"); screen \(layout.viewport) (\(layout.metrics.screenClass.rawValue)), feed width \(JSONWriter.number(layout.metrics.feedWidth)), content height \(JSONWriter.number(layout.contentHeight.rounded()))")
        }
    }

    struct Visibility: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the card state transitions of a scroll trace (JSON lines of {t, y, x?, tap?}).")

        @OptionGroup var options: ConfigOptions
        @OptionGroup var feed: FeedOptions

        @Option(help: ArgumentHelp("The scroll trace: JSON lines {\"t\": seconds, \"y\": offset, \"x\": {\"<widget id>\": offset}, \"tap\": \"<card id>\"}.", valueName: "file"))
        var trace: String

        @Flag(help: "Print one JSON object per event (transition, page, tap).")
        var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed visibility") { try execute() }
        }

        private func execute() throws {
            let config = try options.resolve()
            let scroll = try ScrollTrace.load(path: trace)
            let api = FeedAPI(catalog: try feed.catalog(config), config: config)
            let result = FeedReplay.run(trace: scroll, api: api, config: config, screen: feed.size(config))
            for warning in result.warnings {
                ConfigOptions.warn("\(trace): \(warning)")
            }
            for event in result.events {
                if json {
                    print(CLIOutput.jsonText(event.json, compact: true))
                } else {
                    print(Self.line(event))
                }
            }
            if !json {
                let stats = result.controller.recycler.totals
                print("\(result.events.count) events; view holders: \(stats.created) created, \(stats.reused) reused, \(stats.bound) bound")
            }
        }

        static func line(_ event: FeedEvent) -> String {
            let time = String(format3: event.time).leftPadded(9)
            switch event.kind {
            case .transition(let t):
                return "\(time)  \(t.cardID.padding(toLength: 10, withPad: " ", startingAt: 0)) \(t.from.rawValue) -> \(t.to.rawValue)  (\(String(format3: t.fraction)))"
            case .pageRequested(let page):
                return "\(time)  page \(page) requested"
            case .pageLoaded(let page, let widgets):
                return "\(time)  page \(page) loaded: \(widgets.count) widgets"
            case .collapsed(let widgetID, let reason):
                return "\(time)  widget '\(widgetID)' collapsed: \(reason)"
            case .tap(let cardID, let card):
                return "\(time)  tap \(cardID)\(card == nil ? " (not loaded)" : "")"
            }
        }
    }
}

extension FeedCommand {
    /// What `feed run` and `feed simulate` share: the trace, the network, the files to write.
    struct SessionOptions: ParsableArguments {
        @OptionGroup var options: ConfigOptions
        @OptionGroup var feed: FeedOptions

        @Option(help: ArgumentHelp("The scroll trace (JSON lines). Default: the first 29 s of Samples/traces/mixed.jsonl.", valueName: "file"))
        var trace: String?

        @Option(help: ArgumentHelp("Generate the trace instead: one of \(TracePattern.names).", valueName: "name"))
        var pattern: String?

        @Option(help: ArgumentHelp("With --pattern: the trace's length (default 30); with a trace file: run only its first S seconds.", valueName: "S"))
        var seconds: Double?

        @Option(help: "With --pattern: the seed of the trace's random choices (default 1).")
        var seed: UInt64?

        @Option(help: ArgumentHelp(
            "Seconds of a launch animation (a splash or the loading animation) before the feed shows: the trace starts after them, and with launch.warmFeed (on by default) the session fetches the first page and the start of its first videos meanwhile.",
            valueName: "S"))
        var launch: Double?

        @Option(help: ArgumentHelp("Network profile of the simulator: wifi, 4g, 3g, unlimited, or trace:FILE (a bandwidth trace: Reel's 'seconds kbps [latencyMs]' lines, or the 'seconds Mbps' lines of Pensieve, Norway HSDPA, FCC or MMGC traces; trace:FILE@80ms gives a latency to lines without one).", valueName: "name"))
        var profile = "4g"

        @Option(help: ArgumentHelp("Serve this folder with the CDN simulator (default: Samples).", valueName: "dir"))
        var serve: String?

        @Option(help: ArgumentHelp("Write every event as JSON lines (with --compare, the second run's to <file>-b.jsonl).", valueName: "file.jsonl"))
        var events: String?

        @Option(help: ArgumentHelp("Write the HTML report (with --compare, both runs in one page).", valueName: "file.html"))
        var report: String?

        @Option(help: ArgumentHelp("Run a second time with this override and compare, e.g. prefetch=off or decoder.poolSize=2.", valueName: "key=value"))
        var compare: String?

        @Flag(help: "Print the summary as JSON ({a, b, ratios} with --compare).")
        var json = false

        @Option(name: .customLong("summary"), help: ArgumentHelp("Also write the summary as JSON (what --json prints) to this file.", valueName: "file.json"))
        var summaryFile: String?

        @Option(name: .customLong("trace-events"), help: ArgumentHelp(
            "Write the session in the Chrome trace event format, for Perfetto (ui.perfetto.dev) or chrome://tracing (with --compare, the second run's to <file>-b.json).",
            valueName: "file.json"))
        var traceEvents: String?

        /// Bad options are one line and exit 2, like every other bad input of the run.
        func check() throws {
            if let pattern, TracePattern(rawValue: pattern) == nil {
                throw ReelError(.invalidInput, "unknown pattern '\(pattern)'; use \(TracePattern.names)")
            }
            if trace != nil && pattern != nil { throw ReelError(.invalidInput, "give --trace or --pattern, not both") }
            if let seconds, !(seconds > 0 && seconds <= 86_400) { throw ReelError(.invalidInput, "--seconds must be in (0, 86400]; got \(seconds)") }
            if let launch, !(launch >= 0 && launch <= 60) { throw ReelError(.invalidInput, "--launch must be in [0, 60] seconds; got \(launch)") }
            if let screen = feed.screen, Size(parsing: screen) == nil {
                throw ReelError(.invalidInput, "--screen must be WIDTHxHEIGHT in points, such as 390x844; got '\(screen)'")
            }
            if seed != nil && pattern == nil {
                ConfigOptions.warn("--seed \(seed!) is ignored: it seeds a generated trace (--pattern), and this run replays \(trace.map { "'\($0)'" } ?? "the default trace")")
            }
        }

        /// Runs the session (twice with --compare) on `engine` from `origin` and prints or writes
        /// what was asked. The files are checked before anything runs; Ctrl-C stops the run and
        /// prints and writes what ran.
        func execute(origin: FeedOrigin, engine: FeedRunEngine) async throws {
            try OutputPaths.prepare([(events, "the events"), (report, "the report"), (summaryFile, "the summary"),
                                     (traceEvents, "the trace events")])
            let resolution = try origin.configuration(options.sources)
            let config = resolution.config
            let second = try compare.map { try origin.configuration(options.sources, override: $0).config }
            let catalog = try feed.catalog(config)
            let scroll: ScrollTrace
            if let pattern, let kind = TracePattern(rawValue: pattern) {
                scroll = ScrollTrace.generated(kind, seconds: seconds ?? 30, seed: seed ?? 1, catalog: catalog, config: config,
                                               screen: feed.size(config))
            } else if let trace {
                let whole = try ScrollTrace.load(path: trace)
                scroll = seconds.map(whole.cut(after:)) ?? whole
            } else {
                let whole = try ScrollTrace.load(path: try Installed.samplePath(ScrollTrace.defaultFile, option: "--trace FILE"))
                scroll = whole.cut(after: seconds ?? ScrollTrace.defaultSeconds)
            }
            var request = FeedRunRequest(catalog: catalog, trace: scroll, origin: origin, screen: feed.size(config),
                                         launchSeconds: launch ?? 0)
            request.engine = engine
            let interruption = Interruption()
            let line = LiveLine.onTerminal(json: json)
            if engine == .real {
                request.stop = interruption.stop
                request.onProgress = { progress in line.show(FeedRunText.progress(progress)) }
            }
            let runs: [FeedRunResult]
            var comparison: FeedComparison?
            if let second, let compare {
                let (a, b) = try await FeedComparison.runs(request, a: config, b: second, override: compare)
                if let b { comparison = FeedComparison(a: a, b: b, override: compare) }
                runs = [a] + (b.map { [$0] } ?? [])
            } else {
                runs = [try await FeedRun.run(request, config: config, title: trace.map { URL(fileURLWithPath: $0).lastPathComponent } ?? pattern ?? "mixed")]
            }
            line.finish()
            for run in runs {
                for warning in Set(run.warnings).sorted() { ConfigOptions.warn("\(run.title): \(warning)") }
            }
            let summaryJSON = comparison?.json ?? runs[0].summary.json
            let written = try await FeedRunFiles.write(runs, events: events, report: report,
                                                       summary: summaryFile.map { ($0, summaryJSON) }, traceEvents: traceEvents)
            if json {
                print(CLIOutput.jsonText(summaryJSON))
            } else {
                print(FeedRunText.header(request, runs: runs))
                print(SessionSummary.table(runs.map { ($0.title, $0.summary) }))
                for path in written { print("wrote \(path)") }
            }
            try interruption.exitIfInterrupted()
        }
    }

    /// `reel feed run`: a scroll trace through the whole engine in real time, measured.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a scroll trace in real time through the whole engine and measure it.",
            discussion: """
                Serves a folder (default: Samples) with the CDN simulator on 127.0.0.1, or uses a \
                server at --base-url, and runs the trace against it: pages, layout and visibility, \
                prefetch, thumbnails through a fresh disk cache (a temporary folder, deleted \
                afterwards), players mounted while their cards are, the play arbiter. Prints the \
                summary (--json: one object); --events writes every event as JSON lines, --report \
                the HTML report. --compare key=value runs the trace a second time with that \
                configuration override (prefetch=off is short for prefetch.enabled=false) and \
                prints both side by side with ratios; the second run's events go to <events>-b.jsonl \
                and the report shows both. When serving a folder, merch images come from its \
                images/merch/m{n}.jpg unless widgets.merch.imageURLTemplate is set. See \
                docs/feed-session.md.
                """)

        @OptionGroup var session: SessionOptions

        @Option(name: .customLong("base-url"), help: ArgumentHelp("Use the server at this base URL instead of serving a folder.", valueName: "url"))
        var baseURL: String?

        @OptionGroup(title: "Faults the simulator injects") var faults: FaultOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed run") { try await execute() }
        }

        private func execute() async throws {
            try session.check()
            if session.serve != nil && baseURL != nil { throw ReelError(.invalidInput, "give --serve or --base-url, not both") }
            let network = try NetworkProfile.parse(session.profile, allowOffline: false)
            if baseURL != nil && !faults.injection.isEmpty {
                throw ReelError(.invalidInput, "--fail-rate, --stall-rate and --reset-rate need the simulator; not with --base-url")
            }
            let origin = try baseURL.map(FeedOrigin.remote(parsing:))
                ?? FeedOrigin.serve(path: session.serve ?? Installed.samplesFolder(option: "--serve DIR or --base-url URL"), profile: network, faults: faults.injection)
            try await session.execute(origin: origin, engine: .real)
        }
    }

    /// `reel feed simulate`: the same session in virtual time, with models in place of the
    /// network, the players and the cache.
    struct Simulate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a scroll trace through the feed's decisions in virtual time, with models of the link, players and cache.",
            discussion: """
                The same session as `reel feed run` (the same coordinator and policies, the same \
                events, summary and report, marked simulated), with models in place of the real \
                performers: the network profile or bandwidth trace as a link all transfers share, \
                players as buffers of media filled by segment arrivals and drained at 1x, the disk \
                cache, and prefetch under its real policy. The media is the served folder's \
                (default: Samples), read from disk. It takes milliseconds instead of the trace's \
                seconds. The models and how far their figures are from the real engine's: \
                docs/simulation.md.
                """)

        @OptionGroup var session: SessionOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed simulate") { try await execute() }
        }

        private func execute() async throws {
            try session.check()
            let network = try NetworkProfile.parse(session.profile, allowOffline: false)
            let origin = try FeedOrigin.serve(path: session.serve ?? Installed.samplesFolder(option: "--serve DIR"), profile: network)
            try await session.execute(origin: origin, engine: .simulate)
        }
    }
}

extension FeedCommand {
    /// `reel feed check-events`: the play rules, verified from a session's events file.
    struct CheckEvents: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-events",
            abstract: "Verify from an events file (reel feed run --events) that the play rules held.",
            discussion: """
                Checks that two widgets never played at once, that no widget played more cards than \
                its type's limit (playback.<type>.maxSimultaneous), that a card autoplayed at most once, \
                that every playStart followed its card's mount, and with --low-end that nothing \
                autoplayed and never two players were mounted. Prints each violation; exits 1 if any.
                """)

        @OptionGroup var options: ConfigOptions

        @Argument(help: ArgumentHelp("The events file: JSON lines as reel feed run --events writes them.", valueName: "file"))
        var file: String

        @Flag(help: "Check the low-end rules too (device.isLowEnd from the configuration also turns them on).")
        var lowEnd = false

        @Flag(help: "Print {facts, violations: [{kind, t, cards, message}]} as JSON.")
        var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            let violations = try await CLIOutput.run("feed check-events") { () throws -> [PlayRuleViolation] in
                let config = try options.resolve()
                let facts = try SessionEvent.load(path: file).compactMap(\.playFact)
                var limits: [WidgetType: Int] = [:]
                for type in WidgetType.allCases { limits[type] = config.playback.maxSimultaneous(for: type) }
                let violations = PlayRulesChecker.check(facts, maxSimultaneous: limits, isLowEnd: lowEnd || config.device.isLowEnd)
                if json {
                    print(CLIOutput.jsonText(.object([
                        "facts": .int(facts.count),
                        "violations": .array(violations.map { violation in
                            .object([
                                "kind": .string(violation.kind.rawValue), "t": .double(violation.time),
                                "cards": .array(violation.cards.map(JSONValue.string)), "message": .string(violation.message),
                            ])
                        }),
                    ]), compact: true))
                } else {
                    for violation in violations { print(violation.description) }
                    print("\(file): \(facts.count) play facts, \(violations.isEmpty ? "every rule held" : "\(violations.count) violation\(violations.count == 1 ? "" : "s")")")
                }
                return violations
            }
            if !violations.isEmpty { throw ExitCode(ExitStatus.checkFailed) }
        }
    }
}

extension FeedCommand {
    /// `reel feed report`: the HTML report of one saved session, or of two compared.
    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Write the HTML report of a feed session (or two, compared) from saved events.",
            discussion: """
                One self-contained page (inline CSS and SVG, nothing fetched): a timeline of every \
                card's visibility state with plays, first frames, stalls and errors; a histogram of \
                time to first frame; bytes read over time by origin and cache hit; the summary table \
                (with b/a ratios for two runs). The i-th --summary and --title go with the i-th \
                --events; a summary file holding a comparison ({a, b, ratios}) serves both runs. \
                See docs/report.md.
                """)

        @Option(name: .customLong("events"), help: ArgumentHelp("An events file (reel feed run --events); give it twice to compare two runs.", valueName: "file"))
        var events: [String] = []

        @Option(name: .customLong("summary"), help: ArgumentHelp("The run's summary (reel feed run --json), or a comparison {a, b, ratios}.", valueName: "file"))
        var summaries: [String] = []

        @Option(name: .customLong("title"), help: ArgumentHelp("The run's name in the report (default: the events file's name).", valueName: "text"))
        var titles: [String] = []

        @Option(help: ArgumentHelp("Where to write the HTML page.", valueName: "file.html"))
        var output: String

        @Flag(help: "Print {output, bytes, runs: [{title, events, cards}]} as JSON.")
        var json = false

        @OptionGroup var options: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("feed report") {
                _ = try options.resolve()
                try OutputPaths.prepare(output, what: "the report")
                let report = try HTMLReport.load(events: events, summaries: summaries, titles: titles)
                let size = try report.write(to: output)
                let runs = report.runs.map { run in
                    (title: run.title, events: run.events.count, cards: Set(run.events.compactMap(\.card)).count)
                }
                if json {
                    print(CLIOutput.jsonText(.object([
                        "output": .string(output), "bytes": .int(size),
                        "runs": .array(runs.map { .object(["title": .string($0.title), "events": .int($0.events), "cards": .int($0.cards)]) }),
                    ]), compact: true))
                } else {
                    let described = runs.map { "\($0.title): \($0.events) events, \($0.cards) cards" }.joined(separator: "; ")
                    print("wrote \(output) (\(Human.bytes(Int64(size)))): \(described)")
                }
            }
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// A number with three decimals.
    fileprivate init(format3 value: Double) {
        let scaled = Int((value * 1000).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        let fraction = String(magnitude % 1000)
        self = "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
