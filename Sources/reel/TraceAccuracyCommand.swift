import ArgumentParser
import Foundation
import OrderedCollections
import ReelCore
import ReelFeed
import ReelHarness

/// `reel trace accuracy`: how well the landing prediction foresees where traces' flings and
/// swipes come to rest (`LandingAccuracy`), over trace files and generated traces.
struct TraceAccuracyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accuracy",
        abstract: "Measure the landing prediction on scroll traces.",
        discussion: """
            Replays each trace's samples through the scroll predictor as the feed session does \
            (preload.prediction.*) and compares every prediction of a fling with where the scroll \
            really came to rest: the error at the first prediction and 100, 250 and 500 ms later \
            (in screens), and the lead (how long before the rest every prediction was within half \
            a screen: the time preload had to fetch the landing's cards). Carousel swipes: the \
            share whose first prediction named the card they rested on. Traces: --trace files, \
            and/or --pattern with --seeds (generated over the feed of --feed on --screen).
            """)

    @OptionGroup var options: ConfigOptions
    @OptionGroup var feed: FeedCommand.FeedOptions

    @Option(help: ArgumentHelp("A scroll trace file (repeatable).", valueName: "file"))
    var trace: [String] = []

    @Option(help: ArgumentHelp("Generate traces of these patterns (comma-separated: \(TracePattern.names), or all).", valueName: "names"))
    var pattern: String?

    @Option(help: ArgumentHelp("\(SeedList.help) Default 1-3.", valueName: "list"))
    var seeds = SeedList([1, 2, 3])

    @Option(help: "Length of each generated trace in seconds.")
    var seconds: Double = 60

    @Flag(help: "Print the figures as one JSON object.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    var patterns: [TracePattern] {
        guard let pattern else { return [] }
        if pattern == "all" { return TracePattern.allCases }
        return pattern.split(separator: ",").compactMap { TracePattern(rawValue: String($0)) }
    }

    var seedList: [UInt64] { seeds.seeds }

    func validate() throws {
        if let pattern, pattern != "all",
           pattern.split(separator: ",").contains(where: { TracePattern(rawValue: String($0)) == nil }) {
            throw ValidationError("unknown pattern in '\(pattern)'; use \(TracePattern.names) or all")
        }
        if trace.isEmpty && pattern == nil { throw ValidationError("give --trace FILE or --pattern NAMES") }
        if !(seconds > 0 && seconds <= 86_400) { throw ValidationError("--seconds must be in (0, 86400]") }
    }

    func run() async throws {
        logging.bootstrap()
        try await CLIOutput.run("trace accuracy") {
            let config = try options.resolve()
            let api = FeedAPI(catalog: try feed.catalog(config), config: config)
            let pages = api.isEndless ? max(2, Int(seconds / 2)) : nil
            let build = FeedBuild(api: api, config: config, screen: feed.size(config), pages: pages)
            var traces: [(name: String, trace: ScrollTrace)] = try trace.map { ($0, try ScrollTrace.load(path: $0)) }
            for pattern in patterns {
                for seed in seedList {
                    traces.append(("\(pattern.rawValue)-s\(seed)",
                                   TraceGenerator.generate(pattern, seconds: seconds, build: build, seed: seed)))
                }
            }
            let parameters = ScrollPredictor.Parameters(config.preload.prediction)
            var all = LandingAccuracy(trace: ScrollTrace(samples: []), layout: build.layout, model: build.model, parameters: parameters)
            var rows: [(String, LandingAccuracy)] = []
            for (name, trace) in traces {
                let accuracy = LandingAccuracy(trace: trace, layout: build.layout, model: build.model, parameters: parameters)
                rows.append((name, accuracy))
                all.flings += accuracy.flings
                all.swipes += accuracy.swipes
                all.swipesPredicted += accuracy.swipesPredicted
            }
            if json {
                print(CLIOutput.jsonText(Self.figures(all, traces: rows)))
            } else {
                print(Self.text(all, rows: rows))
            }
        }
    }

    static func figures(_ accuracy: LandingAccuracy) -> JSONValue {
        var errors: [JSONValue] = []
        for (index, offset) in LandingAccuracy.checkpoints.enumerated() {
            let figure = accuracy.error(at: index)
            errors.append(.object(["afterMs": .int(Int(offset * 1000)), "flings": .int(figure?.count ?? 0),
                                   "p50Screens": figure.map { .double($0.p50) } ?? .null,
                                   "p90Screens": figure.map { .double($0.p90) } ?? .null]))
        }
        let lead = accuracy.lead
        return .object([
            "flings": .int(accuracy.flings.count),
            "errors": .array(errors),
            "leadSeconds": .object(["p50": lead.map { .double($0.p50) } ?? .null, "p10": lead.map { .double($0.p10) } ?? .null]),
            "swipes": .int(accuracy.swipes),
            "swipesPredictedRatio": accuracy.swipes == 0 ? .null : .double(Double(accuracy.swipesPredicted) / Double(accuracy.swipes)),
        ])
    }

    static func figures(_ all: LandingAccuracy, traces: [(String, LandingAccuracy)]) -> JSONValue {
        var object: [(String, JSONValue)] = [("all", figures(all))]
        object.append(("traces", .object(.init(uniqueKeysWithValues: traces.map { ($0.0, figures($0.1)) }))))
        return .object(.init(uniqueKeysWithValues: object))
    }

    static func text(_ all: LandingAccuracy, rows: [(String, LandingAccuracy)]) -> String {
        func line(_ name: String, _ accuracy: LandingAccuracy) -> String {
            var parts = [name.padding(toLength: 22, withPad: " ", startingAt: 0), String(format: "%6d", accuracy.flings.count)]
            for index in LandingAccuracy.checkpoints.indices {
                parts.append(accuracy.error(at: index).map { String(format: "%5.2f/%5.2f", $0.p50, $0.p90) } ?? "      -    ")
            }
            parts.append(accuracy.lead.map { String(format: "%5.2f s/%5.2f s", $0.p50, $0.p10) } ?? "       -       ")
            parts.append(accuracy.swipes == 0 ? "-" : "\(accuracy.swipesPredicted)/\(accuracy.swipes)")
            return parts.joined(separator: "  ")
        }
        var out = "landing error in screens (p50/p90) after the first prediction of a fling; lead p50/p10\n"
        out += ["trace".padding(toLength: 22, withPad: " ", startingAt: 0), "flings", "   +0 ms   ", "  +100 ms  ", "  +250 ms  ",
                "  +500 ms  ", "  lead p50/p10  ", "swipes"].joined(separator: "  ") + "\n"
        for (name, accuracy) in rows { out += line(name, accuracy) + "\n" }
        if rows.count > 1 { out += line("all", all) + "\n" }
        return out
    }
}
