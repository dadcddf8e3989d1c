import Foundation
import ReelServer
import ReelTestSupport
import Testing

/// Every bad input of `reel play` ends in one line naming the input and the cause, a non-zero
/// exit, and no crash or hang.
@Suite("reel play refuses bad input clearly")
struct PlayBadInputTests {
    /// A served folder of broken inputs next to a copy of one good sample.
    static func makeFixtures() throws -> URL {
        let root = try makeScratchFolder("reel-bad-input")
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        try write("page.m3u8", "<!DOCTYPE html><html><head><title>Sign in</title></head><body>Hi</body></html>")
        try write("empty.m3u8", "")
        try write("garbage.m3u8", "this is neither a playlist nor a manifest\nat all\n")
        try write("nosegments.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-ENDLIST\n")
        try write("self.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,RESOLUTION=540x960\nself.m3u8\n")
        try write("broken.mpd", "<?xml version=\"1.0\"?><MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\"><Period><AdaptationSet>")
        try write("text.ts", "hello, I am not video\n")
        try write("notvideo.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\ntext.ts\n#EXTINF:2.0,\ntext.ts\n#EXT-X-ENDLIST\n")
        try write("local.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n")
        try write("ftp.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nftp://example.test/seg.ts\n#EXT-X-ENDLIST\n")
        return root
    }

    /// Runs `reel play` and checks the failure: exit status, one line on stderr naming `names`.
    func expectFailure(_ arguments: [String], status: Int32, names: String, says cause: String,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await ReelProcess.run(["play"] + arguments + ["--fast"], timeout: .seconds(60))
        let lines = result.stderr.split(separator: "\n")
        #expect(result.status == status, "exit \(result.status), stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.count == 1, "expected one line, got: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(names), "'\(result.stderr)' does not name \(names)", sourceLocation: sourceLocation)
        #expect(result.stderr.localizedCaseInsensitiveContains(cause), "'\(result.stderr)' does not say '\(cause)'",
                sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func missingFile() async throws {
        try await expectFailure(["/no/such/dir/video.m3u8"], status: 2, names: "/no/such/dir/video.m3u8", says: "no such file")
    }

    @Test func missingHost() async throws {
        try await expectFailure(["http://no-such-host.invalid/video.m3u8"], status: 3, names: "no-such-host.invalid", says: "resolve")
    }

    @Test func connectionRefused() async throws {
        // A port that was just free: start a server, note its URL, stop it.
        let url = try await withSampleServer { $0.url(for: "streams/s01/index.m3u8") }
        try await expectFailure([url.absoluteString, "--set", "network.maxRetries=1"], status: 3, names: url.absoluteString,
                          says: "connect")
    }

    @Test func unsupportedScheme() async throws {
        try await expectFailure(["rtmp://example.test/live"], status: 2, names: "rtmp://example.test/live", says: "not supported")
    }

    @Test(arguments: [
        ("missing.m3u8", Int32(2), "HTTP 404"),
        ("page.m3u8", 4, "HTML page"),
        ("empty.m3u8", 4, "empty"),
        ("garbage.m3u8", 4, "neither HLS nor DASH"),
        ("nosegments.m3u8", 4, "no segments"),
        ("self.m3u8", 4, "lists itself"),
        ("broken.mpd", 4, "broken.mpd"),
        ("notvideo.m3u8", 5, "text.ts"),
        ("local.m3u8", 2, "file:///etc/passwd"),
        ("ftp.m3u8", 2, "ftp://example.test/seg.ts"),
    ])
    func badRemoteInput(path: String, status: Int32, cause: String) async throws {
        let root = try Self.makeFixtures()
        defer { try? FileManager.default.removeItem(at: root) }
        try await withSampleServer(root: root) { server in
            let url = server.url(for: path).absoluteString
            try await expectFailure([url], status: status, names: path, says: cause)
        }
    }

    @Test func serverErrorsOnThePlaylistAfterRetries() async throws {
        try await withSampleServer { server in
            server.injectFault(.status(500), path: "/streams/s01/index.m3u8", count: 10)
            let url = server.url(for: "streams/s01/index.m3u8").absoluteString
            try await expectFailure([url, "--set", "network.maxRetries=2", "--set", "network.retryBackoffMs=10"],
                              status: 3, names: url, says: "HTTP 500")
            #expect(server.bill().paths["/streams/s01/index.m3u8"]?.requests == 3)
        }
    }

    @Test func aStalledServerHitsTheTimeout() async throws {
        try await withSampleServer { server in
            server.injectFault(.stall(afterBytes: 0), path: "/streams/s01/index.m3u8", count: 10)
            let url = server.url(for: "streams/s01/index.m3u8").absoluteString
            try await expectFailure([url, "--set", "network.lowSpeedTimeMs=300", "--set", "network.maxRetries=1"],
                              status: 3, names: url, says: "stalled 2 times (under 1024 bytes/s for 300 ms)")
        }
    }

    @Test func corruptAndTruncatedSegmentsAreCountedAndDecodingGoesOn() async throws {
        let root = try makeScratchFolder("reel-corrupt")
        defer { try? FileManager.default.removeItem(at: root) }
        let source = PackagePaths.samples.appendingPathComponent("streams/s01")
        let copy = root.appendingPathComponent("s01")
        try FileManager.default.copyItem(at: source, to: copy)
        // Flip bytes in the middle of one segment and cut another in half.
        let flipped = copy.appendingPathComponent("seg_001.ts")
        var bytes = [UInt8](try Data(contentsOf: flipped))
        for index in stride(from: bytes.count / 3, to: bytes.count / 3 + 4000, by: 7) { bytes[index] ^= 0x5A }
        try Data(bytes).write(to: flipped)
        let truncated = copy.appendingPathComponent("seg_003.ts")
        let whole = try Data(contentsOf: truncated)
        try whole.prefix(whole.count / 2).write(to: truncated)
        try await withSampleServer(root: root) { server in
            let result = try await ReelProcess.run(["play", server.url(for: "s01/index.m3u8").absoluteString, "--fast", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let video = try #require(report["video"] as? [String: Any])
            let frames = try #require(video["frames"] as? Int)
            let problems = (video["corruptPackets"] as? Int ?? 0) + (video["decodeErrors"] as? Int ?? 0)
                + ((report["errors"] as? [Any])?.count ?? 0)
            #expect(frames > 300, "decoding stopped early: \(frames) frames")
            #expect(problems > 0, "the damage went unnoticed")
        }
    }
}
