import ArgumentParser
import Foundation
import ReelCore
import ReelLaunch
import ReelMedia
import ReelNet

/// `reel splash check|render`: Lottie splash assets checked and drawn with rlottie.
struct SplashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splash",
        abstract: "Check splash assets (Lottie) against the launch limits, or draw one of their frames.",
        subcommands: [Check.self, Render.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate Lottie assets: frames, fps, seconds, bytes, render time per frame, verdict.",
            discussion: """
                An asset is valid when it parses as JSON and as a Lottie animation rlottie draws (no text \
                layers, no external images, bounded canvas and repeaters), runs at most launch.splash.maxFPS \
                (30) frames per second, lasts at most launch.splash.maxSeconds (3), is at most \
                launch.splash.maxBytes (1 MiB) and every frame renders (not all blank). Each frame is drawn \
                at the canvas size on this machine and timed. JSON: an array of {asset, frames, fps, seconds, \
                bytes, width, height, renderMs {p50, p95, max}, valid, problems[]}. Exit status: 0 all valid, \
                1 one is not, 2 one cannot be read.
                """)

        @Argument(help: ArgumentHelp("Lottie files (paths or http(s) URLs).", valueName: "asset"))
        var assets: [String]

        @Flag(help: "Print a JSON array.")
        var json = false

        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("splash check") { try await execute() }
        }

        private func execute() async throws {
            let settings = try config.resolve()
            let limits = try LaunchParameters(config: settings).assetLimits
            let renderer = LottieRenderer()
            var reports: [JSONValue] = []
            var unreadable: ReelError?
            var invalid = 0
            for asset in assets {
                do {
                    let bytes = try await SplashAssetInput.read(asset, limit: LottieRenderer.maxReadBytes, network: settings.network)
                    let report = await renderer.check(bytes, limits: limits, measuringPastLimits: true)
                    if !report.isValid { invalid += 1 }
                    if json {
                        reports.append(SplashCheckOutput.json(asset, report))
                    } else {
                        print(SplashCheckOutput.line(asset, report))
                    }
                } catch let error as ReelError {
                    unreadable = unreadable ?? error
                    CLIOutput.printError("reel splash check: \(error.description)")
                }
            }
            if json { print(JSONWriter.pretty(.array(reports))) }
            if let unreadable { throw ExitCode(CLIOutput.exitCode(for: unreadable)) }
            if invalid > 0 { throw ExitCode(1) }
        }
    }

    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw one frame of a Lottie asset with rlottie into a PNG.",
            discussion: "The frame is drawn at the animation's canvas size with its transparency. Exit status: 0 written, 2 bad asset, frame or output.")

        @Argument(help: ArgumentHelp("A Lottie file (path or http(s) URL).", valueName: "asset"))
        var asset: String

        @Option(help: ArgumentHelp("The frame to draw, from 0.", valueName: "n"))
        var frame: Int = 0

        @Option(help: ArgumentHelp("Where to write the PNG.", valueName: "out.png"))
        var png: String

        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("splash render") { try await execute() }
        }

        private func execute() async throws {
            let settings = try config.resolve()
            let bytes = try await SplashAssetInput.read(asset, limit: LottieRenderer.maxReadBytes, network: settings.network)
            let image = try await LottieRenderer().render(bytes, frame: frame, name: asset)
            let path = png
            try await BlockingPool.shared.run {
                let encoded = try PNGEncoder.encode(rgba: image.pixels, width: image.width, height: image.height)
                do {
                    try Data(encoded).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw ReelError(.invalidInput, "cannot write '\(path)': \(error.localizedDescription)")
                }
            }
            print("wrote \(path): frame \(frame) of '\(asset)', \(image.width)x\(image.height), \(image.coveredPixels) pixels drawn")
        }
    }
}
