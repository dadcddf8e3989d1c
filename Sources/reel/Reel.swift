import ArgumentParser

/// The `reel` command: thin parsing and printing over the Reel libraries.
@main
struct Reel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Headless engine for short-form video feeds: play, inspect, cache, prefetch, serve and measure.",
        subcommands: [
            PlayCommand.self,
            InspectCommand.self,
            ServeCommand.self,
            CacheCommand.self,
            PrefetchCommand.self,
            ConfigCommand.self,
            FeedCommand.self,
            StressCommand.self,
            TraceCommand.self,
            DemoCommand.self,
            LaunchCommand.self,
            SplashCommand.self,
            BenchCommand.self,
        ]
    )
}
