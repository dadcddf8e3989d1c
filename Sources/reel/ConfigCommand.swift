import ArgumentParser
import Foundation
import OrderedCollections
import ReelCore

/// `reel config`: list the keys, show the effective values, check a file.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "List, show and check Reel's configuration keys.",
        subcommands: [Defaults.self, Show.self, Check.self]
    )

    struct Defaults: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every key with its default, type and description.")

        @OptionGroup var options: ConfigOptions

        @Flag(help: "Print {reelVersion, keys: [{key, type, default, description}]} as JSON.")
        var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("config defaults") { try execute() }
        }

        private func execute() throws {
            _ = try options.resolve()
            let schema = ConfigSchema.reel
            if json {
                print(CLIOutput.jsonText(.object(["keys": schema.json])))
            } else {
                let width = schema.keys.map(\.key.count).max() ?? 0
                for info in schema.keys {
                    let key = info.key.padding(toLength: width, withPad: " ", startingAt: 0)
                    let type = info.typeName.padding(toLength: 8, withPad: " ", startingAt: 0)
                    print("\(key)  \(type)  \(JSONWriter.compact(info.defaultValue))")
                    print("    \(info.description)")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the effective values after --config and --set.")

        @OptionGroup var options: ConfigOptions

        @Flag(help: "Print one flat JSON object of key -> value.")
        var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("config show") { try execute() }
        }

        private func execute() throws {
            let resolution = try options.resolution()
            for line in resolution.skipped {
                ConfigOptions.warn(line)
            }
            let values = resolution.config.flatValues
            if json {
                print(CLIOutput.jsonText(resolution.config.flatJSON))
            } else {
                let width = values.map(\.key.count).max() ?? 0
                for (key, value) in values {
                    let origin = resolution.origins[key].map { "  (\($0))" } ?? ""
                    print("\(key.padding(toLength: width, withPad: " ", startingAt: 0))  \(JSONWriter.compact(value))\(origin)")
                }
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate configuration files (on top of any --config and --set).",
            discussion: """
                Reads each file as a run would and prints one line per file. A gate for CI: exit 2 when \
                a file is refused (not JSON, an unknown key, named with the nearest known one, a \
                wrong type or range, inconsistent thresholds), else exit 1 when any file gave a \
                warning (a versioned value that does not apply at app.version: give --set \
                app.version=X to check for the app that reads it), else 0.
                """)

        @OptionGroup var options: ConfigOptions

        @Argument(help: ArgumentHelp("Configuration files to check.", valueName: "file"))
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one configuration file to check") }
        }

        @OptionGroup var logging: LoggingOptions

        /// Checks every file, even after a bad one; fails at the end if any was refused or warned.
        func run() async throws {
            logging.bootstrap()
            var failures = 0, warned = 0
            for file in files {
                do {
                    let resolution = try options.resolution(extra: [.file(file)])
                    for line in resolution.skipped {
                        ConfigOptions.warn(line)
                    }
                    let set = resolution.origins.values.filter { $0 == ConfigSource.file(file).name }.count
                    let warnings = resolution.skipped.count
                    if warnings > 0 { warned += 1 }
                    print("\(file): \(warnings == 0 ? "ok" : "warned") (\(set) key\(set == 1 ? "" : "s") set, \(warnings) warning\(warnings == 1 ? "" : "s"))")
                } catch let error as ReelError {
                    failures += 1
                    CLIOutput.printError("reel config check: \(error.description)")
                }
            }
            if failures > 0 { throw ExitCode(ExitStatus.badInput) }
            if warned > 0 { throw ExitCode(ExitStatus.checkFailed) }
        }
    }
}
