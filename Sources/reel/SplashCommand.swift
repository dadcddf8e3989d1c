import ArgumentParser
import Foundation
import OrderedCollections
import ReelCore
import ReelLaunch
import ReelMedia
import ReelNet
import ReelSplash

/// `reel splash check|render`: Lottie splash assets checked and drawn with rlottie.
struct SplashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splash",
        abstract: "Check splash assets (Lottie) against the launch limits, or draw one of their frames.",
        subcommands: [Check.self, Render.self, CheckAsset.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate Lottie assets: frames, fps, seconds, bytes, render time per frame, verdict.",
            discussion: """
                An asset is valid when it parses as JSON and as a Lottie animation rlottie draws (no text \
                layers, no external images, dashes and gaps more than 0), what a frame costs is bounded \
                (shapes after nested repeaters and precompositions, layers after expansion, matte and mask \
                buffers, painted area, decoded image pixels, strokes at most 4096 pixels wide after their \
                scales), it runs at most launch.splash.maxFPS (30) \
                frames per second, lasts at most launch.splash.maxSeconds (3), is at most \
                launch.splash.maxBytes (1 MiB), every frame renders (not all blank) and the 95th percentile \
                of a frame's render time is within the frame interval. Each asset is checked in a child \
                process of its own, bounded by launch.splash.checkMemoryMiB (512) and checkSeconds (15): \
                an asset that crashes rlottie or runs out of them is invalid. Each frame is drawn at the \
                canvas size on this machine and timed. JSON: an array of {asset, frames, fps, seconds, bytes, \
                width, height, cost {layers, shapes, buffers, paintedCanvases, imagePixels, strokeWidth}, renderMs {p50, \
                p95, max}, renderedFrames, check {seconds, cpuSeconds, maxRSSBytes}, valid, problems[]}. \
                Exit status: 0 all valid, 1 one is not, 2 one cannot be read.
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
            let checker = CheckAsset.checker
            var reports: [JSONValue] = []
            var unreadable: ReelError?
            var invalid = 0
            for asset in assets {
                do {
                    let bytes = try await SplashAssetInput.read(asset, limit: LottieRenderer.maxReadBytes, config: settings)
                    let report = try await checker.check(bytes, limits: limits, measuringPastLimits: true)
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
            if json { print(CLIOutput.jsonText(.object(["assets": .array(reports)]))) }
            if let unreadable { throw ExitCode(ExitStatus.of(unreadable)) }
            if invalid > 0 { throw ExitCode(ExitStatus.checkFailed) }
        }
    }

    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw one frame of a Lottie asset with rlottie into a PNG.",
            discussion: """
                The asset is checked first in a child process, as `reel splash check` does; it is drawn only \
                when that check drew every frame within its bounds (its fps, length or render time may be \
                over the limits). The frame is drawn at the animation's canvas size with its transparency. \
                Exit status: 0 written, 2 bad asset, frame or output.
                """)

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
            let bytes = try await SplashAssetInput.read(asset, limit: LottieRenderer.maxReadBytes, config: settings)
            let report = try await CheckAsset.checker.check(bytes, limits: try LaunchParameters(config: settings).assetLimits,
                                                            measuringPastLimits: true)
            guard report.drewEveryFrame else {
                throw ReelError(.invalidInput, "'\(asset)' cannot be drawn: \(report.problems.joined(separator: "; "))")
            }
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

    /// `reel splash check-asset --child`: the child process that checks one asset for `reel splash
    /// check|render` and `reel launch simulate` (`SplashAssetChild`): a request on standard input,
    /// a report on standard output. Not for people, hence hidden.
    struct CheckAsset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-asset",
            abstract: "The child process reel checks a splash asset in (run by reel itself).",
            shouldDisplay: false)

        @Flag(help: "Be the child: read a request on standard input, write the report on standard output.")
        var child = false

        /// The checker `reel` uses: this executable, started as the child.
        static var checker: ChildProcessAssetChecker {
            .currentExecutable(arguments: ["splash", "check-asset", "--child"])
        }

        func run() throws {
            guard child else {
                throw ValidationError("reel splash check-asset is the child process reel checks assets in; use reel splash check")
            }
            let status = SplashAssetChild.main()
            if status != 0 { throw ExitCode(status) }
        }
    }
}
