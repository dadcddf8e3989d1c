import Foundation
import OrderedCollections
import ReelCore
import ReelEngine
import ReelFeed

/// What `--json` prints at exit: the session summary as `reel feed run --json` prints it (`plays`
/// and the rest at the top level; `cdn` is what the session read from the network, the CDN's
/// view without its bill), the UI's frame times (`uiFrameMs`), and the viewer's own figures.
struct ViewerReport {
    /// The viewer's own figures.
    struct Figures: Codable {
        struct Screenshot: Codable {
            struct Card: Codable {
                var id: String
                /// x, y, width, height in pixels.
                var rect: [Int]
                var shows: String
                var pictureTime: Double?
                var playing: Bool
            }

            var t: Double
            var file: String
            var cards: [Card]
        }

        struct Launch: Codable {
            /// "splash", "loadingAnimation" or "nothing".
            var show: String
            var splash: String?
            var reason: String?
            /// Seconds on the screen's clock when the feed showed and when the launch window ended.
            var feedShownAt: Double?
            var endedAt: Double?
            /// Splash frames drawn.
            var splashFrames: Int
        }

        /// Seconds the window was open.
        var seconds: Double
        var videoDriver: String
        var renderer: String
        /// The screen in points, the window in pixels.
        var points: [Double]
        var pixels: [Int]
        var frames: Int
        /// Frames whose work took over 50 ms: when (seconds) and how long (ms), the first 20.
        var slowFrames: [[Double]]
        var launch: Launch
        /// The HUD's figures in the last frame, drawn after the session closed.
        var hud: HUDFigures?
        var input: ViewerLoop.InputCounts
        /// The feed's vertical offset at the end, points.
        var scrollY: Double
        var textureUploads: Int
        var screenshots: [Screenshot]
        var recording: Capture.Recording?
        /// The speaker: its driver (or why there is none), when `m` turned it on and off, the
        /// cards heard, and how far the sound heard was from the picture.
        var sound: ViewerSound.Figures?
    }

    let text: String

    init(loop: ViewerLoop, outcome: SessionOutcome, recording: Capture.Recording?, seconds: Double) {
        var object = outcome.summary.json.object ?? [:]
        let frames = loop.frameTimes.all
        object["uiFrameMs"] = .object([
            "p50": .optional(frames.p50), "p99": .optional(frames.p99), "max": .optional(frames.max), "count": .int(frames.count),
        ])
        let launch: Figures.Launch
        switch loop.feed?.launch {
        case .splash(let splash)?:
            launch = Figures.Launch(show: "splash", splash: splash.id, reason: "eligible", feedShownAt: loop.feedShownAt,
                                    endedAt: loop.launchEndedAt, splashFrames: loop.launchPainter.framesShown)
        case .loading(_, let reason)?:
            launch = Figures.Launch(show: "loadingAnimation", reason: reason, feedShownAt: loop.feedShownAt, endedAt: loop.launchEndedAt,
                                    splashFrames: 0)
        case .nothing(let reason)?:
            launch = Figures.Launch(show: "nothing", reason: reason, feedShownAt: loop.feedShownAt, endedAt: loop.launchEndedAt,
                                    splashFrames: 0)
        case nil:
            launch = Figures.Launch(show: "nothing", splashFrames: 0)
        }
        let size = loop.screen.pixelSize
        let figures = Figures(
            seconds: seconds, videoDriver: loop.screen.videoDriver, renderer: loop.screen.rendererName,
            points: [loop.viewport.points.width, loop.viewport.points.height], pixels: [size.width, size.height],
            frames: frames.count, slowFrames: loop.frameTimes.slow.map { [$0.time, $0.ms] }, launch: launch, hud: loop.figures, input: loop.counts, scrollY: loop.scroll.y, textureUploads: loop.textures.uploads,
            screenshots: loop.capture.shots.map { shot in
                Figures.Screenshot(t: shot.time, file: shot.path, cards: shot.cards.map { card in
                    Figures.Screenshot.Card(id: card.id, rect: [Int(card.rect.x), Int(card.rect.y), Int(card.rect.w), Int(card.rect.h)],
                                            shows: card.shows.rawValue, pictureTime: card.pictureTime, playing: card.playing)
                })
            },
            recording: recording, sound: loop.soundFigures)
        object["viewer"] = (try? JSONValue(encoding: figures)) ?? .null
        text = JSONWriter.pretty(.object(object))
    }
}
