import ArgumentParser
import Foundation
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

        @Flag(help: "Print a JSON array of {key, type, default, description}.")
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
                print(JSONWriter.pretty(schema.json))
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
            for warning in resolution.warnings {
                ConfigOptions.warn(warning)
            }
            for line in resolution.skipped {
                ConfigOptions.warn(line)
            }
            let values = resolution.config.flatValues
            if json {
                print(JSONWriter.pretty(resolution.config.flatJSON))
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
        static let configuration = CommandConfiguration(abstract: "Validate configuration files (on top of any --config and --set).")

        @OptionGroup var options: ConfigOptions

        @Argument(help: ArgumentHelp("Configuration files to check.", valueName: "file"))
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one configuration file to check") }
        }

        /// Checks every file, even after a bad one, and fails at the end if any was bad.
        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            var failures = 0
            for file in files {
                do {
                    let resolution = try options.resolution(extra: [.file(file)])
                    for warning in resolution.warnings {
                        ConfigOptions.warn(warning)
                    }
                    for line in resolution.skipped {
                        ConfigOptions.warn(line)
                    }
                    let set = resolution.origins.values.filter { $0 == ConfigSource.file(file).name }.count
                    print("\(file): ok (\(set) key\(set == 1 ? "" : "s") set, \(resolution.warnings.count) warning\(resolution.warnings.count == 1 ? "" : "s"))")
                } catch let error as ReelError {
                    failures += 1
                    CLIOutput.printError("reel config check: \(error.description)")
                }
            }
            if failures > 0 { throw ExitCode(2) }
        }
    }
}
