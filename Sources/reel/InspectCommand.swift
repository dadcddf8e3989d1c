import ArgumentParser
import Foundation
import ReelCore
import ReelManifest
import ReelNet

struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the parsed manifest of an HLS playlist or a DASH MPD.",
        discussion: """
            Reads the playlist or MPD (an http(s) URL or a local path) with Reel's manifest model and \
            prints its variants and renditions with every segment: URI as written and resolved, \
            duration, byte range, key and init section. A master playlist lists its variants; with \
            --deep Reel also fetches each variant's media playlist. The type is judged from the \
            content, not the name.

            JSON: {type: "hls-master"|"hls-media"|"dash", variants: [{uri, resolvedURI, bandwidth, \
            width, height, codecs, audioGroup}], renditions: [{id, type, resolvedURI, segments: [{uri, \
            resolvedURI, duration, byteRange: {offset, length}|null, key: {method, uri, iv}|null, \
            map: {uri, resolvedURI, byteRange}|null, discontinuity}]}]}. For DASH, variants are the \
            video representations (uri = Representation id).
            """)

    @Argument(help: "An http(s) URL or a local path of an HLS playlist or a DASH MPD.")
    var input: String

    @Flag(help: "For a master playlist, also fetch and list every variant's media playlist.")
    var deep = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var config: ConfigOptions

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        try await CLIOutput.run("inspect") { try await execute() }
    }

    private func execute() async throws {
        let settings = try config.resolve()
        let url = try InputLocation.parse(input)
        var options = ReelStack.Options()
        options.cache = .none
        options.allowLocalFiles = url.isFileURL
        let deep = self.deep
        let limits = ManifestLimits(settings.manifest)
        let manifest = try await ReelStack.with(config: settings, options: options) { stack in
            let factory = stack.network
            return try await BlockingPool.shared.run {
                let loader = ManifestLoader(limits: limits) { spec in
                    // A remote playlist may name only http(s) URLs; a local one may name local files.
                    _ = try URLPolicy(allowLocalFiles: url.isFileURL).check(spec.url.absoluteString)
                    return Data(try factory.fetch(spec, limit: limits.maxPlaylistBytes))
                }
                return deep ? try loader.loadDeep(url) : try loader.load(url)
            }
        }
        if json {
            print(try CLIOutput.json(ManifestReport(manifest)))
        } else {
            print(ManifestSummary(manifest).text)
            for warning in manifest.warnings {
                CLIOutput.printError("warning: \(warning.line.map { "line \($0): " } ?? "")\(warning.message)")
            }
        }
    }
}
