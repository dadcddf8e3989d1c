import ArgumentParser
import Foundation
import ReelCore

/// The `reel` command: thin parsing and printing over the Reel libraries.
@main
struct Reel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Headless engine for short-form video feeds: play, inspect, cache, prefetch, serve and measure.",
        discussion: """
            Start with `reel play URL` (the start time of a stream), `reel feed run --profile 3g` (a \
            scroll through the whole engine on a network) and `reel demo` (a policy compared: prefetch \
            on and off). `reel COMMAND --help` explains each command; `man reel` once installed.

            Exit status, the same in every command:

            \(ExitStatus.text)
            """,
        version: ReelVersion.current.description,
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

    /// Parses and runs like ArgumentParser's own `main`, with two differences: a mistake on the
    /// command line exits 2 like every other bad input (not 64), and an unknown command gets the
    /// nearest one suggested.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { exit(withError: error) }
            var message = fullMessage(for: error)
            if let hint = CommandSuggestion.hint(for: arguments, root: self) { message += "\n" + hint }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(ExitStatus.badInput)
        }
    }
}

/// "Did you mean" for a mistyped command: follows the arguments down the command tree and, at
/// the first word that names no subcommand where one is expected, names the nearest.
enum CommandSuggestion {
    static func hint(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var configuration = root.configuration
        var path = [configuration.commandName ?? "reel"]
        for argument in arguments {
            if argument.hasPrefix("-") { return nil }
            let subcommands = configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            var names: [String] = []
            var shown: [String] = []
            var next: CommandConfiguration?
            for subcommand in subcommands {
                let sub = subcommand.configuration
                let name = subcommand._commandName
                names.append(name)
                names += sub.aliases
                if sub.shouldDisplay { shown.append(name) }
                if name == argument || sub.aliases.contains(argument) { next = sub }
            }
            if let next {
                configuration = next
                path.append(argument)
                continue
            }
            // A command with a default subcommand reads other words as that one's arguments.
            if configuration.defaultSubcommand != nil { return nil }
            if let nearest = EditDistance.suggestion(for: argument, among: names) {
                return "Did you mean '\(path.joined(separator: " ")) \(nearest)'?"
            }
            return "'\(argument)' is not a command of '\(path.joined(separator: " "))'; its commands: \(shown.joined(separator: ", "))"
        }
        return nil
    }
}
