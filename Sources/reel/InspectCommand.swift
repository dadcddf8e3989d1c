import ArgumentParser
import Foundation
import OrderedCollections
import ReelCore
import ReelManifest
import ReelMedia
import ReelNet

struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the parsed manifest of an HLS playlist or a DASH MPD.",
        discussion: """
            Reads the playlist or MPD (an http(s) URL or a local path) with Reel's manifest model and \
            prints its variants and renditions, then every segment (its number, duration, URI, byte \
            range, key, init section, discontinuity). A master playlist lists its variants; with \
            --deep Reel also fetches each variant's media playlist. The type is judged from the \
            content, not the name.

            --probe also opens the media with FFmpeg, as ffprobe does, and prints its facts: the \
            video's codec, profile and level, pixel format, size, frame rate and key frame interval \
            (measured over its first key frames), the audio's codec, sample rate and channels. A \
            media file (not a playlist) can only be probed.

            JSON: {type: "hls-master"|"hls-media"|"dash", variants: [{uri, resolvedURI, bandwidth, \
            width, height, codecs, audioGroup}], renditions: [{id, type, resolvedURI, segments: [{uri, \
            resolvedURI, duration, byteRange: {offset, length}|null, key: {method, uri, iv}|null, \
            map: {uri, resolvedURI, byteRange}|null, discontinuity}]}]}. For DASH, variants are the \
            video representations (uri = Representation id). With --probe the object has `media`: \
            {container, durationSeconds, video: {codec, profile, level, pixelFormat, width, height, \
            frameRate, fps, keyFrameIntervalSeconds, keyFrameIntervalFrames}, audio: {codec, profile, \
            sampleRate, channels, channelLayout}, keyFramesSeen, secondsRead}.
            """)

    @Argument(help: "An http(s) URL or a local path of an HLS playlist or a DASH MPD.")
    var input: String

    @Flag(help: "For a master playlist, also fetch and list every variant's media playlist.")
    var deep = false

    @Flag(help: "Also open the media with FFmpeg and print its facts as ffprobe would (codec profile and level, pixel format, frame rate, key frame interval, audio rate and channels).")
    var probe = false

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
        let (deep, probe) = (self.deep, self.probe)
        let limits = ManifestLimits(settings.manifest)
        let request = PlaybackRequest(input: url, config: settings)
        let (manifest, facts) = try await ReelStack.with(config: settings, options: options) { stack -> (Manifest?, MediaFacts?) in
            let factory = stack.network
            return try await BlockingPool.shared.run {
                let loader = ManifestLoader(limits: limits) { spec in
                    // A remote playlist may name only http(s) URLs; a local one may name local files.
                    _ = try URLPolicy(allowLocalFiles: url.isFileURL).check(spec.url.absoluteString)
                    return Data(try factory.fetch(spec, limit: limits.maxPlaylistBytes))
                }
                let manifest: Manifest?
                do {
                    manifest = deep ? try loader.loadDeep(url) : try loader.load(url)
                } catch let error as ReelError where probe && error.code == .notAPlaylist {
                    // A media file has no manifest; probing it is still asked.
                    manifest = nil
                }
                let facts = probe ? try MediaProbe.probe(request, factory: factory) : nil
                return (manifest, facts)
            }
        }
        if json {
            var object = try manifest.map { try JSONValue(encoding: ManifestReport($0)) }?.object ?? [:]
            if let facts { object["media"] = try JSONValue(encoding: facts) }
            print(CLIOutput.jsonText(.object(object)))
            return
        }
        if let manifest {
            print(ManifestSummary(manifest).text, terminator: "")
            ManifestSummary.segmentLines(manifest) { print($0) }
            for warning in manifest.warnings {
                CLIOutput.printError("warning: \(warning.line.map { "line \($0): " } ?? "")\(warning.message)")
            }
        }
        if let facts { print(Self.text(facts)) }
    }

    /// The media's facts, ffprobe's way: one line per stream.
    static func text(_ facts: MediaFacts) -> String {
        var lines = ["media: \(facts.container)" + (facts.durationSeconds.map { String(format: ", %.3f s", $0) } ?? "")]
        if let v = facts.video {
            var line = "  video: \(v.codec)"
            if let profile = v.profile { line += " (\(profile))" }
            if let level = v.level { line += ", level \(Self.level(level, codec: v.codec))" }
            line += ", \(v.pixelFormat ?? "?"), \(v.width)x\(v.height)"
            if let fps = v.fps, let rate = v.frameRate { line += ", \(JSONWriter.number(fps)) fps (\(rate))" }
            if let seconds = v.keyFrameIntervalSeconds {
                line += ", key frame every \(JSONWriter.number(seconds)) s" + (v.keyFrameIntervalFrames.map { " (\($0) frames)" } ?? "")
            } else {
                line += ", key frame interval unknown (\(facts.keyFramesSeen) key frame\(facts.keyFramesSeen == 1 ? "" : "s") in \(JSONWriter.number((facts.secondsRead * 10).rounded() / 10)) s)"
            }
            lines.append(line)
        }
        if let a = facts.audio {
            var line = "  audio: \(a.codec)"
            if let profile = a.profile { line += " (\(profile))" }
            line += ", \(a.sampleRate) Hz, \(a.channels) channel\(a.channels == 1 ? "" : "s")"
            if let layout = a.channelLayout { line += " (\(layout))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// H.264 and HEVC levels as people write them (31 -> 3.1; HEVC's 93 -> 3.1); others as is.
    static func level(_ level: Int, codec: String) -> String {
        switch codec {
        case "h264": level % 10 == 0 ? "\(level / 10)" : "\(level / 10).\(level % 10)"
        case "hevc": level % 30 == 0 ? "\(level / 30)" : String(format: "%.1f", Double(level) / 30)
        default: "\(level)"
        }
    }
}
