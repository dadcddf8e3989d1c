import Foundation
import ReelServer
import ReelTestSupport
import Testing

/// One log: the libraries' loggers reach stderr through the tool, at the level `-v` or
/// `--log-level` asks; warnings by default, every transfer and FFmpeg's messages at debug.
@Suite("reel logging")
struct LoggingTests {
    @Test func debugShowsEveryTransferAndFFmpegsMessagesAndTheDefaultShowsNone() async throws {
        try await withSampleServer { server in
            let url = server.url(for: "streams/s01/index.m3u8").absoluteString
            let play = ["play", url, "--fast", "--frames", "10", "--no-cache"]
            let quiet = try await ReelProcess.run(play)
            #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
            let info = try await ReelProcess.run(play + ["-v"])
            #expect(info.status == 0 && !info.stderr.contains("debug ["), "\(info.stderr)")
            for flags in [["--log-level", "debug"], ["-vv"]] {
                let debug = try await ReelProcess.run(play + flags)
                #expect(debug.status == 0, "\(debug.stderr)")
                let lines = debug.stderr.split(separator: "\n")
                #expect(lines.contains { $0.hasPrefix("debug [reel.net] GET \(url) 200") }, "\(debug.stderr)")
                #expect(lines.contains { $0.hasPrefix("debug [reel.net] GET ") && $0.contains("/seg_000.ts 200") }, "\(debug.stderr)")
                #expect(lines.contains { $0.hasPrefix("debug [reel.ffmpeg] ") }, "\(debug.stderr)")
            }
            let bad = try await ReelProcess.run(play + ["--log-level", "loud"])
            #expect(bad.status == 2 && bad.stderr.contains("--log-level"), "\(bad.stderr)")
        }
    }

    /// A feed run's cache is the library's, opened without a warning callback: its warnings must
    /// still reach stderr. A file-size limit makes the first large cache write fail, as a full
    /// disk would.
    @Test func aCacheWarningInAFeedRunReachesStderr() async throws {
        let samples = PackagePaths.samples.path
        let command = "trap '' XFSZ; ulimit -f 200; exec \"$0\" \"$@\""
        let arguments = ["-c", command, PackagePaths.reelBinary.path, "feed", "run", "--serve", samples,
                         "--feed", samples + "/video-feed.json", "--pattern", "browse", "--seconds", "4", "--profile", "wifi"]
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), arguments)
        #expect(result.status == 0, "\(result.output)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: cache writes stopped") }
        #expect(warnings.count == 1, "\(result.stderr)")
    }
}
