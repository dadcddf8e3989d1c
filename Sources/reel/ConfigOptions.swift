import ArgumentParser
import Foundation
import Logging
import ReelCore

/// `--config FILE` and `--set key=value`, both repeatable, for every command: built-in defaults
/// < each `--config` file in order < each `--set` in order.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp("A JSON file of dotted configuration keys (repeatable; later files win).", valueName: "file"))
    var configFiles: [String] = []

    @Option(name: .customLong("set"), help: ArgumentHelp("Set one configuration key, e.g. --set prefetch.maxConcurrent=3 (repeatable; wins over --config).", valueName: "key=value"))
    var assignments: [String] = []

    /// The layers in order of precedence, lowest first.
    var sources: [ConfigSource] {
        configFiles.map { ConfigSource.file($0) } + (assignments.isEmpty ? [] : [.assignments(assignments)])
    }

    /// The effective configuration, where each value came from and the versioned values left out.
    /// An unknown key, in a file or a `--set`, is refused (exit 2) naming the nearest known key.
    func resolution(extra: [ConfigSource] = []) throws -> ConfigResolution {
        try ConfigResolver().resolve(sources + extra)
    }

    /// The effective configuration.
    func resolve() throws -> ReelConfig {
        try resolution().config
    }

    /// Writes one line to standard error.
    static func warn(_ line: String) {
        ReelLog.config.warning("\(line)")
    }
}
