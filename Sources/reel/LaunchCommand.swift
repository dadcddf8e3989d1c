import ArgumentParser
import Foundation
import ReelCore
import ReelLaunch
import ReelManifest
import ReelNet
import ReelSplash

/// `reel launch simulate`: replays lifecycle events through the launch policy and its state.
struct LaunchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "What the app shows at launch: seasonal splashes and the loading animation.",
        subcommands: [Simulate.self])

    struct Simulate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay lifecycle events and print each launch decision with its reason.",
            discussion: """
                Events are JSON lines {"t": "2026-11-27T08:00:00Z", "event": "launch"|"foreground"|"background"|"crash"} \
                in time order; time comes from the events alone, so a week replays in a moment. The \
                splash configuration ({"holidaySplash": [{"name", "id", "startDateTime", "endDateTime", \
                "assetUrl", "displayTimeInterval", "priority"}]}) is fetched in the background as the app \
                would, its assets downloaded, checked with rlottie in a child process (bounded by \
                launch.splash.checkMemoryMiB and checkSeconds) and kept in the state folder; the work an \
                event starts completes before the next event. The state (last displays, lifecycle, crashes, \
                assets) persists in --state across runs. Splashes need launch.splash.enabled (usually \
                versioned: --config with {"launch.splash.enabled": {"value": true, "minVersion": "24.0"}} \
                and --set app.version=24.1).

                JSON lines: {t, event, decision: "splash"|"loadingAnimation"|"nothing", splash: id or null, \
                reason, splashReason, detail, loadingSeconds}. Exit status: 0 when the events were replayed \
                (a configuration or asset that is refused or unreachable is a warning), 2 bad events file, \
                option or configuration.
                """)

        @Option(help: ArgumentHelp("The lifecycle events: JSON lines {\"t\": ISO 8601, \"event\": launch|foreground|background|crash}.", valueName: "file"))
        var events: String

        @Option(name: .customLong("splash-config"), help: ArgumentHelp("The splash configuration: an http(s) URL or a path (sets launch.splash.configURL).", valueName: "url-or-path"))
        var splashConfig: String

        @Option(help: ArgumentHelp("The launch state folder (database and cached assets), kept across runs.", valueName: "dir"))
        var state: String

        @Flag(help: "Print one JSON object per event.")
        var json = false

        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("launch simulate") { try await execute() }
        }

        private func execute() async throws {
            let resolution = try config.resolution()
            var parameters = try LaunchParameters(resolution: resolution)
            let configURL = try InputLocation.parse(splashConfig)
            parameters.configurationURL = configURL
            let path = events
            let replay = try await BlockingPool.shared.run { try LaunchEventLog.load(path: path) }
            guard let first = replay.first else { return }
            var options = ReelStack.Options()
            options.cache = .none
            options.allowLocalFiles = configURL.isFileURL
            try await ReelStack.with(config: resolution.config, options: options) { stack in
                try await self.replay(replay, first: first, parameters: parameters, factory: stack.network)
            }
        }

        private func replay(_ replay: [LaunchEvent], first: LaunchEvent, parameters: LaunchParameters,
                            factory: URLDataSourceFactory) async throws {
            let manual = ManualClock()
            let clock = LaunchClock.following(manual, from: first.time)
            let controller = await LaunchController.open(directory: URL(fileURLWithPath: state), parameters: parameters,
                                                         factory: factory, checker: SplashCommand.CheckAsset.checker, clock: clock)
            // Events older than the state's last (the same file replayed on a kept --state) would
            // run the clock backwards: said once here, and each counts as no time away.
            if let last = await controller.snapshot.state.lifecycle.lastEventAt, first.time < last {
                ConfigOptions.warn("'\(events)' starts at \(ISO8601DateFormatter().string(from: first.time)), before the last event the state "
                                   + "'\(state)' holds (\(ISO8601DateFormatter().string(from: last))): the clock goes back, and each "
                                   + "such event counts as no time away; give a new --state to replay from scratch")
            }
            var counts: [String: Int] = [:]
            for event in replay {
                let ahead = event.time.timeIntervalSince(clock.now())
                if ahead > 0 { manual.advance(by: .milliseconds(Int64((ahead * 1000).rounded()))) }
                let decision = await controller.handle(event)
                counts[decision.kind, default: 0] += 1
                let line = json ? CLIOutput.jsonText(LaunchDecisionOutput.json(event, decision), compact: true)
                                : LaunchDecisionOutput.line(event, decision)
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                await controller.waitUntilIdle()
            }
            await controller.close()
            if !json {
                print("\(replay.count) events: \(counts["splash"] ?? 0) splashes, \(counts["loadingAnimation"] ?? 0) loading animations, \(counts["nothing"] ?? 0) nothing")
            }
        }
    }
}
