import Foundation
import ReelCore
import ReelFeed
import ReelTestSupport
import Testing

/// `reel splash check` and `reel splash render` on the samples of `Samples/launch`.
@Suite("reel splash")
struct SplashCommandTests {
    static let samples = PackagePaths.samples.appendingPathComponent("launch")
    static let valid = ["snowfall.json", "lanterns.json", "confetti.json"]
    static let invalid: [String: String] = [
        "fast-60fps.json": "60 fps, more than launch.splash.maxFPS (30)",
        "long-10s.json": "10.00 s long, more than launch.splash.maxSeconds (3)",
        "big-2mib.json": "2105859 bytes, more than launch.splash.maxBytes (1048576)",
        "malformed.json": "not JSON: line 1",
        "text-layer.json": "layer 'greeting' is a text layer (ty 5): rlottie draws no text",
    ]

    static func path(_ name: String) -> String { samples.appendingPathComponent(name).path }
    /// A starved test machine must not refuse an asset for the time its check waited for a core.
    static let patient = ["--set", "launch.splash.checkSeconds=120"]

    @Test func checkGivesEachSampleItsVerdict() async throws {
        let names = Self.valid + Self.invalid.keys.sorted()
        let run = try await ReelProcess.run(["splash", "check", "--json"] + Self.patient + names.map(Self.path))
        #expect(run.status == 1, "\(run.stderr)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let reports = try #require(output["assets"] as? [[String: Any]], "\(run.stdout)")
        #expect(reports.count == names.count)
        for (name, report) in zip(names, reports) {
            #expect(report["asset"] as? String == Self.path(name))
            let problems = report["problems"] as? [String] ?? ["?"]
            if let problem = Self.invalid[name] {
                #expect(report["valid"] as? Bool == false, "\(name)")
                #expect(problems.count == 1 && problems[0].contains(problem), "\(name): \(problems)")
            } else {
                #expect(report["valid"] as? Bool == true, "\(name): \(problems)")
                #expect(problems.isEmpty)
                let render = try #require(report["renderMs"] as? [String: Double], "\(name)")
                #expect((render["p50"] ?? 0) > 0 && (render["p95"] ?? 0) >= (render["p50"] ?? 0) && (render["max"] ?? 0) >= (render["p95"] ?? 0))
                #expect((report["frames"] as? Int ?? 0) > 0 && (report["fps"] as? Double ?? 99) <= 30 && (report["seconds"] as? Double ?? 99) <= 3)
            }
            #expect(report["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: Self.path(name))[.size] as? Int))
        }
        let good = try await ReelProcess.run(["splash", "check"] + Self.patient + Self.valid.map(Self.path))
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.split(separator: "\n").count == 3 && good.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(": valid") },
                "\(good.stdout)")
        #expect(good.stdout.contains("\(Self.path("lanterns.json")): 72 frames, 24 fps, 3.00 s, 8.0 KB, 540x960, render p50 "))
    }

    @Test func checkLimitsComeFromTheConfiguration() async throws {
        let run = try await ReelProcess.run(["splash", "check", Self.path("fast-60fps.json"), "--set", "launch.splash.maxFPS=60"] + Self.patient)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let strict = try await ReelProcess.run(["splash", "check", Self.path("snowfall.json"), "--set", "launch.splash.maxFPS=29.97"] + Self.patient)
        #expect(strict.status == 1 && strict.stdout.contains("INVALID: 30 fps, more than launch.splash.maxFPS (29.97)"), "\(strict.stdout)")
    }

    @Test func aMissingAssetIsBadInput() async throws {
        let run = try await ReelProcess.run(["splash", "check", Self.path("snowfall.json"), Self.path("nope.json")] + Self.patient)
        #expect(run.status == 2)
        #expect(run.stderr == "reel splash check: asset '\(Self.path("nope.json"))' not found\n")
        #expect(run.stdout.hasSuffix(": valid\n"), "the others are still checked: \(run.stdout)")
    }

    @Test func aRenderedFrameIsNotBlank() async throws {
        let scratch = try makeScratchFolder("reel-splash-render")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let png = scratch.appendingPathComponent("confetti.png")
        let run = try await ReelProcess.run(["splash", "render", Self.path("confetti.json"), "--frame", "20", "--png", png.path] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("540x960"), "\(run.stdout)")
        let bytes = try Array(Data(contentsOf: png))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG signature")
        // The PNG decoded by ffmpeg, back to RGBA.
        let raw = scratch.appendingPathComponent("confetti.rgba")
        let ffmpeg = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                                ["-v", "error", "-y", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgba", raw.path])
        #expect(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        let pixels = try Array(Data(contentsOf: raw))
        #expect(pixels.count == 540 * 960 * 4)
        var colors: Set<UInt32> = []
        var covered = 0
        for index in stride(from: 0, to: pixels.count, by: 4) {
            // rlottie's fixed-point blending leaves some edges at alpha 254.
            if pixels[index + 3] >= 250 { covered += 1 }
            let red = UInt32(pixels[index]), green = UInt32(pixels[index + 1]), blue = UInt32(pixels[index + 2])
            colors.insert(red << 16 | green << 8 | blue)
        }
        #expect(covered == 540 * 960, "the background covers the frame")
        #expect(colors.count >= 5, "background and four confetti colours, found \(colors.count)")
    }

    @Test func renderRefusesWhatItCannotDraw() async throws {
        let scratch = try makeScratchFolder("reel-splash-render")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out.png").path
        let text = try await ReelProcess.run(["splash", "render", Self.path("text-layer.json"), "--png", out] + Self.patient)
        #expect(text.status == 2 && text.stderr.contains("text layer"), "\(text.stderr)")
        let frame = try await ReelProcess.run(["splash", "render", Self.path("snowfall.json"), "--frame", "60", "--png", out] + Self.patient)
        #expect(frame.status == 2 && frame.stderr.contains("has frames 0...59; there is no frame 60"), "\(frame.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
