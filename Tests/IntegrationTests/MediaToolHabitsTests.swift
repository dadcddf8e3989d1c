import Foundation
import ReelCore
import ReelServer
import ReelTestSupport
import Testing

/// What a user of ffmpeg, ffprobe and ffplay expects of `reel`: `--framemd5` in ffmpeg's own
/// format (`diff` finds nothing), `inspect --probe` telling what ffprobe tells, a segment list,
/// a start named cold or warm, and a mistyped command answered with the nearest one.
@Suite("Media tool habits")
struct MediaToolHabitsTests {
    static func ffmpegTool(_ name: String) throws -> URL {
        try #require(Tool.find(name), "\(name) is not installed: `make deps` installs it")
    }

    /// `diff <(reel play IN --fast --framemd5) <(ffmpeg -i IN -map 0:v:0 -autoscale 0 -f framemd5 -)`
    /// is empty: header and every line, for MPEG-TS, fMP4 and a square fMP4 stream.
    @Test(arguments: ["s01", "s02", "s08"])
    func framemd5IsFFmpegsOwn(sample: String) async throws {
        let ffmpeg = try Self.ffmpegTool("ffmpeg")
        let input = PackagePaths.samples.appendingPathComponent("streams/\(sample)/index.m3u8").path
        let reel = try await ReelProcess.run(["play", input, "--fast", "--framemd5"])
        #expect(reel.status == 0, "\(reel.stderr)")
        let theirs = try await ChildProcess.run(ffmpeg, ["-loglevel", "error", "-i", input, "-map", "0:v:0", "-autoscale", "0", "-f", "framemd5", "-"])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        #expect(reel.stdout.hasPrefix("#format: frame checksums"), "\(reel.stdout.prefix(200))")
        let ours = reel.stdout.split(separator: "\n"), expected = theirs.stdout.split(separator: "\n")
        #expect(ours.count == expected.count && ours.count > 100, "\(ours.count) lines, ffmpeg's \(expected.count)")
        if let first = zip(ours, expected).first(where: { $0.0 != $0.1 }) {
            Issue.record("\(sample): first difference:\n< \(first.0)\n> \(first.1)")
        }
    }

    /// `inspect` lists every segment in its text; `--probe` gives ffprobe's facts of the media.
    @Test func inspectListsSegmentsAndProbesAsFFprobe() async throws {
        let ffprobe = try Self.ffmpegTool("ffprobe")
        let input = PackagePaths.samples.appendingPathComponent("streams/s01/index.m3u8").path
        let text = try await ReelProcess.run(["inspect", input])
        #expect(text.status == 0, "\(text.stderr)")
        for segment in 0..<7 {
            #expect(text.stdout.contains(String(format: "seg_%03d.ts", segment)), "segment \(segment) missing: \(text.stdout)")
        }

        let probed = try await ReelProcess.run(["inspect", input, "--probe", "--json"])
        #expect(probed.status == 0, "\(probed.stderr)")
        let media = try #require(try JSONParser.parse(probed.stdout)["media"], "no media: \(probed.stdout.prefix(500))")
        let theirs = try await ChildProcess.run(ffprobe, [
            "-v", "error", "-show_entries", "stream=codec_type,codec_name,profile,level,pix_fmt,width,height,r_frame_rate,sample_rate,channels",
            "-of", "json", input,
        ])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        let streams = try #require(try JSONParser.parse(theirs.stdout)["streams"]?.array)
        let video = try #require(streams.first { $0["codec_type"]?.string == "video" })
        let audio = try #require(streams.first { $0["codec_type"]?.string == "audio" })
        let ourVideo = try #require(media["video"]), ourAudio = try #require(media["audio"])
        #expect(ourVideo["codec"]?.string == video["codec_name"]?.string)
        #expect(ourVideo["profile"]?.string == video["profile"]?.string)
        #expect(ourVideo["level"]?.number == video["level"]?.number)
        #expect(ourVideo["pixelFormat"]?.string == video["pix_fmt"]?.string)
        #expect(ourVideo["width"]?.number == video["width"]?.number && ourVideo["height"]?.number == video["height"]?.number)
        #expect(ourVideo["frameRate"]?.string == video["r_frame_rate"]?.string)
        #expect(ourVideo["keyFrameIntervalSeconds"]?.number == 2, "the samples put a key frame every 2 s: \(ourVideo)")
        #expect(ourAudio["codec"]?.string == audio["codec_name"]?.string && ourAudio["profile"]?.string == audio["profile"]?.string)
        #expect(ourAudio["sampleRate"]?.number == audio["sample_rate"]?.string.flatMap(Double.init))
        #expect(ourAudio["channels"]?.number == audio["channels"]?.number)
    }

    /// The first play of a stream is cold, the second warm (from the disk cache: the first read its
    /// whole first segment); `--cold` measures a first play again without touching the cache.
    @Test func aStartIsColdThenWarmAndColdOnRequest() async throws {
        let cache = try makeScratchFolder("reel-cold-warm")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await withSampleServer { server in
            let play = ["play", server.url(for: "streams/s01/index.m3u8").absoluteString, "--fast", "--seconds", "3", "--cache", cache.path]
            let first = try await ReelProcess.run(play)
            #expect(first.status == 0 && first.stdout.contains("cold (from the network)"), "\(first.output)")
            let second = try await ReelProcess.run(play + ["--json"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(try JSONParser.parse(second.stdout)["start"]?.string == "warm", "\(second.stdout.prefix(300))")

            let before = try FolderSnapshot.take(cache)
            let again = try await ReelProcess.run(play + ["--cold", "--json"])
            #expect(again.status == 0, "\(again.stderr)")
            let report = try JSONParser.parse(again.stdout)
            #expect(report["start"]?.string == "cold" && report["network"]?["cacheHitBytes"]?.number == 0, "\(again.stdout.prefix(300))")
            #expect(try FolderSnapshot.take(cache) == before, "--cold changed the cache folder")
        }
    }

    /// A mistyped command, at any depth, is answered with the nearest one (exit 2).
    @Test(arguments: [(["pley"], "reel play"), (["feed", "rn"], "reel feed run"), (["cahce", "stats"], "reel cache")])
    func aMistypedCommandNamesTheNearest(arguments: [String], nearest: String) async throws {
        let result = try await ReelProcess.run(arguments)
        #expect(result.status == 2, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("Did you mean '\(nearest)'?"), "\(result.stderr)")
    }
}
