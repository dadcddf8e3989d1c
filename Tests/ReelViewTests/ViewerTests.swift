import Foundation
import ReelCore
import ReelFeed
import ReelLaunch
import ReelSplash
import ReelMedia
import ReelTestSupport
import Testing

/// The viewer run as a user runs it, on SDL's offscreen driver (no display): a scroll trace
/// drives it, screenshots taken at chosen times show each card where Reel's layout puts it with
/// what it should show (a playing card's decoded frames, an unmounted card's thumbnail, the
/// splash at launch), the recording decodes frame for frame, and the HUD's figures are the
/// summary's.
@Suite("Viewer", .serialized)
struct ViewerTests {
    /// The first short's rest, a scroll to the second short, its rest.
    static let scrollAt = 3.0
    static let secondTop = 737.0

    /// The trace: still on the first screen until `scrollAt`, then a 0.4 s ease-out to the
    /// second short, still again.
    static func trace() -> String {
        var lines = ["{\"t\": 0, \"y\": 0}", "{\"t\": \(scrollAt), \"y\": 0}"]
        for step in 1...12 {
            let progress = Double(step) / 12
            let y = secondTop * (1 - pow(1 - progress, 3))
            lines.append("{\"t\": \(scrollAt + 0.4 * progress), \"y\": \((y * 10).rounded() / 10)}")
        }
        lines.append("{\"t\": 8, \"y\": \(secondTop)}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The feed's layout on the default screen, computed here from the catalog (not read from
    /// the viewer).
    static func layout() throws -> FeedBuild {
        let config = try ConfigResolver().resolve([]).config
        let catalog = try FeedCatalog.load(path: PackagePaths.samples.appendingPathComponent("video-feed.json").path)
        return FeedBuild(api: FeedAPI(catalog: catalog, config: config), config: config, screen: Size(width: 390, height: 844), pages: 1)
    }

    /// A card's rectangle in pixels on a 1x screen scrolled to `y`, edges rounded as drawn.
    static func rect(_ build: FeedBuild, widget: Int, y: Double) throws -> PixelBox {
        let number = try #require(build.layout.cardNumber(CardRef(widget: widget, slot: 0)))
        let rect = build.layout.cardRects[number]
        let left = rect.minX.rounded(), top = (rect.minY - y).rounded()
        return PixelBox(x: Int(left), y: Int(top), width: Int(rect.maxX.rounded() - left), height: Int((rect.maxY - y).rounded() - top))
    }

    /// The sample a widget's video plays ("s01").
    static func sample(_ build: FeedBuild, widget: Int) throws -> String {
        let video = try #require(build.model.video(of: CardRef(widget: widget, slot: 0)))
        return try #require(video.url.split(separator: "/").dropFirst().first.map(String.init))
    }

    @Test("a trace offscreen: the playing card's frames and an unmounted card's thumbnail in their rectangles, the recording, the HUD")
    func traceScreenshotsRecordingAndHUD() async throws {
        let folder = try Scratch()
        let tracePath = folder.path("scroll.jsonl")
        try Self.trace().write(toFile: tracePath, atomically: true, encoding: .utf8)
        let (first, second) = (folder.path("first.png"), folder.path("second.png"))
        let movie = folder.path("session.mp4")
        let run = try await Viewer.run([
            "--offscreen", "--no-launch", "--hud", "--trace", tracePath, "--exit-after", "6.5",
            "--screenshot", "2.5:\(first)", "--screenshot", "6:\(second)", "--record", movie, "--json",
        ])
        let summary = run.json
        let viewer = try #require(summary["viewer"])
        let build = try Self.layout()

        // 2.5 s: the first short plays in its rectangle; the second shows its thumbnail below.
        let shots = try #require(viewer["screenshots"]?.array)
        #expect(shots.count == 2)
        let top = try Self.rect(build, widget: 0, y: 0), below = try Self.rect(build, widget: 1, y: 0)
        try Viewer.expectCard("s0/0", in: shots[0], at: top, shows: "picture")
        try Viewer.expectCard("s1/0", in: shots[0], at: below, shows: "thumbnail")
        let shot = try Screenshot(path: first)
        try await shot.expectPlaying(Self.sample(build, widget: 0), in: top)
        try await shot.expectThumbnail(Self.sample(build, widget: 1), in: below, visibleTo: 844 - 50)

        // 6 s: scrolled to the second short, which plays; the third shows its thumbnail.
        let second2 = try Self.rect(build, widget: 1, y: Self.secondTop), third = try Self.rect(build, widget: 2, y: Self.secondTop)
        try Viewer.expectCard("s1/0", in: shots[1], at: second2, shows: "picture")
        try Viewer.expectCard("s2/0", in: shots[1], at: third, shows: "thumbnail")
        let later = try Screenshot(path: second)
        try await later.expectPlaying(Self.sample(build, widget: 1), in: second2)
        try await later.expectThumbnail(Self.sample(build, widget: 2), in: third, visibleTo: 844 - 50)

        // The recording: 30 fps for the 6.5 s the window was open, every frame decodable.
        let probe = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffprobe"), [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=width,height,nb_read_frames", "-of", "json", movie,
        ])
        #expect(probe.status == 0, "\(probe.stderr)")
        let stream = try #require(try JSONParser.parse(probe.stdout)["streams"]?.array?.first)
        #expect(stream["width"]?.number == 390 && stream["height"]?.number == 844, "\(stream)")
        #expect(stream["nb_read_frames"]?.string == "195", "\(stream)")
        #expect(viewer["recording"]?["frames"]?.number == 195)

        // The HUD's last figures are the summary's.
        let hud = try #require(viewer["hud"])
        #expect(hud["cdnBytes"]?.number == summary["cdn"]?["bytes"]?.number)
        #expect(hud["cdnRequests"]?.number == summary["cdn"]?["requests"]?.number)
        #expect(hud["bytesPlayed"]?.number == summary["bytesPlayed"]?.number)
        #expect(hud["decodersCreated"]?.number == summary["decoders"]?["created"]?.number)
        #expect(hud["decodersReused"]?.number == summary["decoders"]?["reused"]?.number)
        #expect(hud["stalls"]?.number == summary["stalls"]?["count"]?.number)
        #expect(hud["plays"]?.number == summary["plays"]?.number)
        #expect((summary["plays"]?.number ?? 0) >= 2 && (summary["bytesPlayed"]?.number ?? 0) > 0, "\(summary)")
        #expect((summary["uiFrameMs"]?["count"]?.number ?? 0) > 0 && summary["uiFrameMs"]?["p99"]?.number != nil, "\(summary["uiFrameMs"] ?? .null)")
        #expect(summary["errors"]?.number == 0)
    }

    @Test("the launch: the loading animation on a first launch, the splash its downloads bring on the next")
    func splashAtLaunch() async throws {
        let folder = try Scratch()
        let state = folder.path("launch")
        let common = ["--offscreen", "--config", PackagePaths.samples.appendingPathComponent("launch/flags.json").path,
                      "--launch-state", state, "--json", "--exit-after", "2.5"]
        let firstRun = try await Viewer.run(common + ["--launch-time", "2026-11-27T12:00:00Z"])
        let firstLaunch = try #require(firstRun.json["viewer"]?["launch"])
        #expect(firstLaunch["show"]?.string == "loadingAnimation" && firstLaunch["reason"]?.string == "firstLaunch", "\(firstLaunch)")
        #expect((firstLaunch["feedShownAt"]?.number ?? 9) >= 1, "the feed showed before a loading cycle: \(firstLaunch)")

        let shot = folder.path("splash.png")
        let secondRun = try await Viewer.run(common + ["--launch-time", "2026-11-27T12:10:00Z", "--screenshot", "0.8:\(shot)"])
        let launch = try #require(secondRun.json["viewer"]?["launch"])
        // Black Friday's confetti outranks the other splashes open that day.
        #expect(launch["show"]?.string == "splash" && launch["splash"]?.string == "black-friday", "\(launch)")
        #expect((launch["splashFrames"]?.number ?? 0) >= 2, "the splash did not move: \(launch)")
        let shown = try #require(launch["feedShownAt"]?.number)
        #expect(shown >= 1.5, "the feed showed before the 1.6 s splash ended: \(launch)")

        // The screenshot shows one of the splash's frames, fitted to the screen.
        let bytes = [UInt8](try Data(contentsOf: PackagePaths.samples.appendingPathComponent("launch/confetti.json")))
        let renderer = LottieRenderer()
        var frames: [[Double]] = []
        let box = PixelBox(x: 0, y: 75, width: 390, height: 693)
        for index in 0..<40 {
            let image = try await renderer.render(bytes, frame: index, name: "confetti.json")
            frames.append(Cells.of(rgba: image.pixels, width: image.width, height: image.height, channels: 4,
                                   region: Cells.Region(x0: 0.05, y0: 0.05, x1: 0.95, y1: 0.95), columns: 8, rows: 12, background: 0))
        }
        let picture = try Screenshot(path: shot)
        let seen = picture.cells(in: box, region: Cells.Region(x0: 0.05, y0: 0.05, x1: 0.95, y1: 0.95), columns: 8, rows: 12)
        let best = frames.enumerated().map { ($0.offset, Cells.distance(seen, $0.element)) }.min { $0.1 < $1.1 }
        let match = try #require(best)
        #expect(match.1 < 12, "the screenshot matches no frame of the splash: best frame \(match.0) at \(match.1)")
    }

    /// Under Xvfb: real X input (xdotool's wheel at the pointer, then `q`) scrolls the feed from
    /// the first short to the second, which starts; the window's title (what plays) is the signal
    /// each step waits for.
    @Test("under Xvfb, the wheel scrolls the feed and the next short starts")
    func xInputScrollsAndTheNextShortStarts() async throws {
        let run = try await Viewer.underXvfb(arguments: "--no-launch", steps: """
            window=$(timeout 60 xdotool search --sync --name 'playing s0/0' | head -1)
            xdotool mousemove --window "$window" 195 400
            xdotool click --repeat 12 --delay 40 5
            timeout 60 xdotool search --sync --name 'playing s1/0' > /dev/null
            """)
        let viewer = try #require(run.summary["viewer"])
        #expect(viewer["videoDriver"]?.string == "x11")
        #expect(viewer["input"]?["wheel"]?.number == 12 && viewer["input"]?["keys"]?.number == 1, "\(viewer)")
        #expect((viewer["scrollY"]?.number ?? 0) > 300, "the feed did not move: \(viewer)")
        let starts = run.events.filter { $0["type"]?.string == "playStart" }.compactMap { $0["card"]?.string }
        #expect(starts.prefix(2) == ["s0/0", "s1/0"], "\(starts)")
    }

    /// Under Xvfb on a low-end device: nothing autoplays (the title says the feed, nothing
    /// playing, once the first page is laid out); a real click on the first short plays it, where
    /// it is.
    @Test("under Xvfb on a low-end device, nothing autoplays and a click plays the short")
    func lowEndClickPlays() async throws {
        let run = try await Viewer.underXvfb(arguments: "--no-launch --set device.isLowEnd=true", steps: """
            window=$(timeout 60 xdotool search --sync --name 'Reel - feed' | head -1)
            xdotool mousemove --window "$window" 195 300 click 1
            timeout 60 xdotool search --sync --name 'playing s0/0' > /dev/null
            """)
        let starts = run.events.filter { $0["type"]?.string == "playStart" }
        #expect(starts.count == 1, "\(starts)")
        #expect(starts.first?["card"]?.string == "s0/0" && starts.first?["userIntent"] == .bool(true), "\(starts)")
        #expect(run.summary["viewer"]?["input"]?["clicks"]?.number == 1)
    }

    /// The playing short's sound, through SDL's disk audio driver (it writes what the speaker
    /// plays to a file, in real time, silence included): silent until `m` (a scripted key at 3 s),
    /// then the first short's tone, kept with its picture, and silent again after `m` at 5.5 s.
    @Test("the playing short's sound: silent until m, then the short's tone, silent again after m, through SDL's disk audio driver")
    func soundIsMutedUntilAsked() async throws {
        let folder = try Scratch()
        let tracePath = folder.path("still.jsonl")
        try "{\"t\": 0, \"y\": 0}\n{\"t\": 8, \"y\": 0}\n".write(toFile: tracePath, atomically: true, encoding: .utf8)
        let speaker = folder.path("speaker.s16")
        let run = try await Viewer.run(
            ["--offscreen", "--no-launch", "--trace", tracePath, "--key", "3:m", "--key", "5.5:m", "--exit-after", "8", "--json"],
            environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": speaker])
        let sound = try #require(run.json["viewer"]?["sound"])
        #expect(sound["driver"]?.string == "disk" && sound["error"] == .null, "\(sound)")
        #expect(sound["sampleRate"]?.number == 48_000 && sound["channels"]?.number == 2)
        #expect(sound["cards"]?.array?.map(\.string) == ["s0/0"], "\(sound)")
        let unmuted = try #require(sound["unmutedAt"]?.array?.first?.number, "\(sound)")
        let muted = try #require(sound["mutedAt"]?.array?.first?.number, "\(sound)")
        let opened = try #require(sound["openedAt"]?.number, "\(sound)")
        #expect(abs(unmuted - 3) < 0.1 && abs(muted - 5.5) < 0.1)
        #expect((sound["offsetMs"]?["p99"]?.number ?? .infinity) <= 100, "\(sound)")

        // The file runs at the device's pace from its opening (a little slower than the clock on
        // a busy machine: a time in the file is at most that time on the window's clock): before
        // `m` (less a margin) only silence, in the second after it (with a margin) the sound, and
        // from the second `m` (with a margin for the device's buffer) silence again.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: speaker))
        let left: [Int16] = bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - 3, by: 4).map { Int16(bitPattern: UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8) }
        }
        let rate = 48_000.0
        let quietEnd = Int((unmuted - opened - 0.3) * rate)
        let soundStart = Int((unmuted - opened + 0.5) * rate), soundEnd = Int((unmuted - opened + 1.5) * rate)
        let quietAgain = Int((muted - opened + 0.3) * rate)
        try #require(left.count >= quietAgain + 12_000, "the speaker wrote \(left.count) frames; \(sound)")
        #expect(left[..<quietEnd].allSatisfy { $0 == 0 }, "sound before m")
        #expect(left[quietAgain...].allSatisfy { $0 == 0 }, "sound after m muted it")
        let heard = Array(left[soundStart..<soundEnd])
        let rms = (heard.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(heard.count)).squareRoot()
        #expect(rms > 500, "the sound after m is too quiet: RMS \(rms)")
        // The short's tone (Samples/generate.sh: 300 Hz + 40 Hz per sample number, s01: 340 Hz)
        // stands out over other frequencies.
        let build = try Self.layout()
        let number = try #require(Int(try Self.sample(build, widget: 0).dropFirst()))
        let tone = Double(300 + 40 * number)
        let power = { (frequency: Double) -> Double in Self.goertzel(heard, frequency: frequency, rate: rate) }
        #expect(power(tone) > 10 * power(tone * 1.5) && power(tone) > 10 * power(tone / 1.5),
                "\(tone) Hz: \(power(tone)), \(tone * 1.5) Hz: \(power(tone * 1.5)), \(tone / 1.5) Hz: \(power(tone / 1.5))")
    }

    /// Without an audio device the viewer runs silent and `m` says why.
    @Test("no audio device: the viewer runs silent and says why")
    func noAudioDeviceRunsSilent() async throws {
        let run = try await Viewer.run(["--offscreen", "--no-launch", "--key", "1:m", "--exit-after", "2", "--json"],
                                       environment: ["SDL_AUDIODRIVER": "no-such-driver"])
        let sound = try #require(run.json["viewer"]?["sound"])
        #expect(sound["driver"] == .null && sound["error"]?.string?.contains("no audio") == true, "\(sound)")
        #expect(sound["unmutedAt"]?.array?.isEmpty == true && run.json["viewer"]?["input"]?["keys"]?.number == 1, "\(sound)")
    }

    /// The power of one frequency in `samples` (the Goertzel filter).
    static func goertzel(_ samples: [Int16], frequency: Double, rate: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / rate)
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }

    @Test("bad options are refused by name before a window opens")
    func badOptions() async throws {
        for (arguments, words) in [
            (["--screenshot", "soon:x.png"], "--screenshot"), (["--exit-after=-1"], "--exit-after"),
            (["--size", "12x34"], "--size"), (["--trace", "/nonexistent/trace.jsonl"], "trace"),
            (["--record", "/nonexistent-folder/out.mp4"], "--record"), (["--serve", "/tmp"], "video-feed.json"),
            (["--set", "device.screenWidth=banana"], "device.screenWidth"),
            (["--key", "3"], "--key"), (["--key", "soon:m"], "--key"), (["--key", "1:no-such-key"], "--key"),
        ] as [([String], String)] {
            let result = try await ChildProcess.run(PackagePaths.viewBinary, ["--offscreen", "--exit-after", "1"] + arguments,
                                                    directory: PackagePaths.root, timeout: .seconds(60))
            #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
    }

    @Test("every option of --help is in docs/commands.md and docs/viewer.md")
    func everyOptionIsDocumented() async throws {
        let help = try await ChildProcess.run(PackagePaths.viewBinary, ["--help"])
        #expect(help.status == 0)
        let pattern = try NSRegularExpression(pattern: "--[a-z][a-z-]+")
        let text = help.stdout
        let options = Set(pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }).subtracting(["--help"])
        #expect(options.count >= 20, "\(options)")
        for document in ["docs/commands.md", "docs/viewer.md"] {
            let page = try String(contentsOf: PackagePaths.root.appendingPathComponent(document), encoding: .utf8)
            let missing = options.filter { !page.contains("`\($0)") }.sorted()
            #expect(missing.isEmpty, "\(document) does not document \(missing)")
        }
    }

    @Test("the reel tool stays headless: it does not link SDL")
    func theCLIDoesNotLinkSDL() async throws {
        let reel = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ldd"), [PackagePaths.reelBinary.path])
        #expect(reel.status == 0 && reel.stdout.contains("libavcodec"), "\(reel.output)")
        #expect(!reel.stdout.contains("SDL"), "\(reel.stdout)")
        let view = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ldd"), [PackagePaths.viewBinary.path])
        #expect(view.stdout.contains("libSDL2-2.0") && view.stdout.contains("libSDL2_ttf"), "\(view.stdout)")
    }
}
