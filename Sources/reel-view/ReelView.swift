import ArgumentParser
import Foundation
import Logging
import ReelCore
import ReelFeed
import ReelSplash

/// `reel-view`: the feed on a screen. Serves the bundled samples with the CDN simulator (or reads
/// a catalog over HTTP), runs a `FeedEngine` and draws what it decides with SDL2: the layout,
/// thumbnails until cards mount, decoded frames while they play. Scroll with the wheel, a
/// touchpad or a drag; `--trace` scrolls for you; `--record`, `--screenshot`, `--exit-after`
/// and `--json` make it scriptable, with SDL's offscreen driver when there is no display.
@main
struct ReelView: ParsableCommand {
    /// Checks a splash asset when started as the launch's child process (its argument first),
    /// else runs the viewer.
    static func main() {
        if CommandLine.arguments.dropFirst().first == SplashAssetChild.argument { Foundation.exit(SplashAssetChild.main()) }
        Self.main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "reel-view",
        abstract: "Show the feed in a window: scroll it, watch shorts start, see what the engine does.",
        discussion: """
            With no arguments, serves Samples/ with the CDN simulator on 127.0.0.1 (4g profile) \
            and opens a 390x844 window on its feed, after what the launch controller decides to \
            show first (a splash, the loading animation, or nothing). Wheel, touchpad or click-drag \
            scroll (a drag flings on release); drag a carousel sideways. Click a short to open it \
            alone, a carousel card to play it. Keys: down/j and up/k move a widget, left and right \
            swipe the carousel at the top, space plays or pauses, Esc goes back (and quits from \
            the feed), h shows the HUD, m turns the sound of the playing short on and off (muted at \
            start), q quits. See docs/viewer.md.
            """)

    @Option(help: ArgumentHelp("A feed catalog served over HTTP (video-feed.json's schema) instead of serving a folder.", valueName: "url"))
    var feed: String?

    @Option(help: ArgumentHelp("The folder to serve with the CDN simulator: its video-feed.json is the feed.", valueName: "dir"))
    var serve = "Samples"

    @Option(help: ArgumentHelp("Network profile of the simulator: wifi, 4g, 3g, unlimited, or trace:FILE.", valueName: "name"))
    var profile = "4g"

    @Option(name: .customLong("config"), help: ArgumentHelp("A JSON file of dotted configuration keys (repeatable; later files win).", valueName: "file"))
    var configFiles: [String] = []

    @Option(name: .customLong("set"), help: ArgumentHelp("Set one configuration key, e.g. --set device.isLowEnd=true (repeatable; wins over --config).", valueName: "key=value"))
    var assignments: [String] = []

    @Option(help: ArgumentHelp("The screen in points (default: device.screenWidth x device.screenHeight, 390x844).", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Pixels per point of the window (2 for a high-density display).", valueName: "n"))
    var scale: Double = 1

    @Option(help: ArgumentHelp("Scroll along this trace (JSON lines {t, y, x?, tap?}, as reel feed run reads) instead of the mouse; its time starts when the feed shows.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Record what the window shows at 30 fps into this movie (H.264 in MP4 by its extension).", valueName: "file.mp4"))
    var record: String?

    @Option(name: .customLong("screenshot"), help: ArgumentHelp("Write the window as a PNG when it has been open this long (repeatable).", valueName: "seconds:file.png"))
    var screenshots: [String] = []

    @Option(name: .customLong("key"), help: ArgumentHelp("Press a key when the window has been open this long, as if typed (repeatable; SDL's key names: m, h, space, down, escape).", valueName: "seconds:key"))
    var keys: [String] = []

    @Option(name: .customLong("exit-after"), help: ArgumentHelp("Close after this many seconds.", valueName: "seconds"))
    var exitAfter: Double?

    @Flag(help: "At exit, print the session summary as JSON (as reel feed run --json) with the UI's frame times (uiFrameMs) and the viewer's own figures.")
    var json = false

    @Option(name: .customLong("events"), help: ArgumentHelp("Write every event of the session as JSON lines (as reel feed run --events).", valueName: "file.jsonl"))
    var eventsFile: String?

    @Flag(help: "Show the HUD from the start (h toggles it).")
    var hud = false

    @Flag(name: .customLong("no-launch"), help: "Show the feed at once: no splash, no loading animation.")
    var noLaunch = false

    @Option(name: .customLong("launch-state"), help: ArgumentHelp("The launch state folder (default: $XDG_STATE_HOME/reel-view/launch).", valueName: "dir"))
    var launchState: String?

    @Option(name: .customLong("launch-time"), help: ArgumentHelp("The wall-clock time the launch happens at, for splash windows (ISO 8601, default: now).", valueName: "time"))
    var launchTime: String?

    @Option(help: ArgumentHelp("Frames the UI draws per second.", valueName: "n"))
    var fps: Double = 60

    @Flag(help: "Use SDL's offscreen video driver (no display needed), as SDL_VIDEODRIVER=offscreen does.")
    var offscreen = false

    @Option(help: ArgumentHelp("SDL's renderer: software, or an accelerated one SDL knows (opengl, opengles2) on a machine with a GPU.", valueName: "name"))
    var renderer = "software"

    @Option(name: .customLong("log-level"), help: ArgumentHelp("Least important messages on stderr: debug, info, warning, error.", valueName: "level"))
    var logLevel = "warning"

    func run() throws {
        let options: ViewerOptions
        do {
            options = try ViewerOptions(self)
        } catch let error as ReelError {
            Self.fail(error)
        }
        let level = Logger.Level(rawValue: options.logLevel) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let (report, failure) = ViewerApp.run(options)
        if let report { print(report) }
        if let failure { Self.fail(failure) }
    }

    /// One line on stderr and the exit code of the error's area (as `reel` exits).
    static func fail(_ error: ReelError) -> Never {
        FileHandle.standardError.write(Data("reel-view: \(error.description)\n".utf8))
        Foundation.exit(error.exitStatus)
    }
}
