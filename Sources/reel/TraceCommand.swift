import ArgumentParser
import Foundation
import ReelCore
import ReelFeed
import ReelHarness

/// `reel trace generate`: scroll traces for the feed commands, deterministic for a seed.
struct TraceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Make scroll traces (JSON lines of {t, y, x?, tap?}) for `reel feed`.",
        subcommands: [Generate.self, TraceAccuracyCommand.self]
    )

    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate a scroll trace over the feed built from a catalog.",
            discussion: """
                Patterns: browse (read a widget for seconds, scroll to the next, now and then back), \
                fling (fast scrolls through several screens, short rests), carousel (go from \
                carousel to carousel and swipe through its cards), mixed (all three, with taps on \
                visible cards). The trace is laid out against the feed of --feed on --screen, so \
                its carousel ids and tapped card ids exist in that feed. Writes to stdout unless \
                --output is given.
                """)

        @OptionGroup var options: ConfigOptions
        @OptionGroup var feed: FeedCommand.FeedOptions

        @Option(help: ArgumentHelp("One of \(TracePattern.names).", valueName: "name"))
        var pattern: String

        @Option(help: "Length of the session in seconds.")
        var seconds: Double = 60

        @Option(help: "Seed of the random choices; the same seed gives the same trace.")
        var seed: UInt64 = 1

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the trace to this file.", valueName: "file"))
        var output: String?

        func validate() throws {
            if TracePattern(rawValue: pattern) == nil {
                throw ValidationError("unknown pattern '\(pattern)'; use \(TracePattern.names)")
            }
            if !(seconds > 0 && seconds <= 86_400) { throw ValidationError("--seconds must be in (0, 86400]") }
        }

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("trace generate") {
                let config = try options.resolve()
                try OutputPaths.prepare([(output, "the trace")])
                let api = FeedAPI(catalog: try feed.catalog(config), config: config)
                // A looping feed is built as far as the session could scroll: a page per 2 s is plenty.
                let pages = api.isEndless ? max(2, Int(seconds / 2)) : nil
                let build = FeedBuild(api: api, config: config, screen: feed.size(config), pages: pages)
                let trace = TraceGenerator.generate(TracePattern(rawValue: pattern)!, seconds: seconds, build: build, seed: seed)
                let text = trace.jsonLines
                if let output {
                    do {
                        try Data(text.utf8).write(to: URL(fileURLWithPath: output))
                    } catch {
                        throw ReelError(.invalidInput, "cannot write the trace to '\(output)': \(error.localizedDescription)")
                    }
                } else {
                    FileHandle.standardOutput.write(Data(text.utf8))
                }
            }
        }
    }
}
