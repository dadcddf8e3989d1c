import Foundation
import ReelCore
import ReelFeed
import ReelServer
import ReelTestSupport
import Testing

/// `reel play` against servers that misbehave: replies that are not HTTP, encoded and endless
/// bodies, redirects, and streams whose segments all fail. Each ends with one line naming the
/// input and the cause, a non-zero exit, in bounded time.
@Suite("reel play against hostile servers")
struct HostileServerTests {
    static let playlist = Array("""
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXTINF:2.0,
        seg_000.ts
        #EXTINF:2.0,
        seg_001.ts
        #EXT-X-ENDLIST

        """.utf8)

    /// Runs `reel play` on `url` with a hang guard; prints how long it took.
    static func play(_ url: URL, _ extra: [String] = []) async throws -> (ReelProcess.Result, Double) {
        let start = ContinuousClock.now
        let result = try await ReelProcess.run(["play", url.absoluteString, "--fast", "--no-cache"] + extra, timeout: .seconds(60))
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        print("reel play \(url.lastPathComponent) \(extra.joined(separator: " ")): exit \(result.status) after \(String(format: "%.2f", seconds)) s: \(result.stderr.prefix(300))")
        return (result, seconds)
    }

    @Test(arguments: [
        ("random bytes", Array((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }), "is not"),
        ("HTTP/0.9", Array("#EXTM3U\nthis is a body without a status line\n".utf8), "is not HTTP (no valid status line"),
        ("20-digit status", Array("HTTP/1.1 12345678901234567890 OK\r\nContent-Length: 0\r\n\r\n".utf8), "is not HTTP (no valid status line"),
        ("huge header", RawServer.response(headers: ["X-Big: " + String(repeating: "a", count: 400_000)], body: playlist), "too large"),
    ])
    func aReplyThatIsNotHTTPIsNamedAsSuch(name: String, reply: [UInt8], cause: String) async throws {
        let server = try RawServer { _ in .bytes(reply) }
        defer { server.stop() }
        let url = server.url("index.m3u8")
        let (result, _) = try await Self.play(url)
        #expect(result.status == 3, "\(name): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(url.absoluteString) && lines[0].contains(cause), "\(name): \(result.stderr)")
        #expect(!result.stderr.contains("only http and https"), "\(name): \(result.stderr)")
    }

    @Test func anEncodedPlaylistIsRefusedWithoutInflatingIt() async throws {
        // 64 MiB of zeros, gzipped: the body that arrives is small, what it inflates to is not.
        let scratch = try makeScratchFolder("reel-gzip")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("zeros")
        try await BlockingPool.shared.run { try Data(count: 64 << 20).write(to: file) }
        let zipped = try await ChildProcess.run(URL(fileURLWithPath: "/bin/gzip"), ["-9", file.path])
        try #require(zipped.status == 0, "gzip: \(zipped.stderr)")
        let gzip = try await BlockingPool.shared.run { [UInt8](try Data(contentsOf: scratch.appendingPathComponent("zeros.gz"))) }
        let server = try RawServer { _ in .bytes(RawServer.response(headers: ["Content-Encoding: gzip"], body: gzip)) }
        defer { server.stop() }
        let url = server.url("index.m3u8")
        let (result, _) = try await Self.play(url)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("came encoded (Content-Encoding: gzip)") && result.stderr.contains(url.absoluteString),
                "\(result.stderr)")
    }

    @Test func anEndlessSegmentIsCutAtItsLimit() async throws {
        // A real MPEG-TS start (its first 22 packets: media by its first bytes), then sync bytes
        // for ever: the limit is what stops it.
        let start = [UInt8](try Data(contentsOf: PackagePaths.samples.appendingPathComponent("streams/s01/seg_000.ts")).prefix(188 * 22))
        let server = try RawServer { path in
            path.hasSuffix(".m3u8")
                ? .bytes(RawServer.response(body: Self.playlist))
                : .endless(head: Array("HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nConnection: close\r\n\r\n".utf8) + start,
                           chunk: [UInt8](repeating: 0x47, count: 65_536))
        }
        defer { server.stop() }
        let (result, _) = try await Self.play(server.url("index.m3u8"), ["--set", "network.maxSegmentBytes=1000000"])
        #expect(result.status != 0, "\(result.stderr)")
        #expect(result.stderr.contains("passed the 1000000-byte limit of a segment (network.maxSegmentBytes)"), "\(result.stderr)")
    }
}

/// Streams whose segments all fail end after the play's failure budget, not after a timeout per
/// segment (or never, for a live playlist).
@Suite("reel play on streams that keep failing")
struct FailingStreamTests {
    @Test func aPlaylistWhoseSegmentsAllStallEndsAfterOneStallAndItsRetry() async throws {
        try await withSampleServer { server in
            let sample = try #require(SampleIndex.all.first { $0.name == "s01" })
            let folder = "/" + sample.entry.replacingOccurrences(of: "index.m3u8", with: "")
            for index in 0..<8 {
                server.injectFault(.stall(afterBytes: 0), path: folder + String(format: "seg_%03d.ts", index), count: 10)
            }
            let (result, seconds) = try await HostileServerTests.play(server.url(for: sample.entry),
                                                                     ["--set", "network.lowSpeedTimeMs=1000", "--set", "network.retryBackoffMs=100"])
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("gave up after 1 failed fetch in a row"), "\(result.stderr)")
            // The first segment was tried twice (a stall and one retry); the next was cut by the budget.
            let bill = server.bill()
            #expect(bill.paths[folder + "seg_000.ts"]?.requests == 2, "\(bill.paths)")
            #expect((bill.paths[folder + "seg_002.ts"]?.requests ?? 0) == 0, "\(bill.paths)")
            print("all segments stalling (1 s low-speed window, 100 ms backoff): ended after \(String(format: "%.2f", seconds)) s; budget 2.2 s")
        }
    }

    @Test func aLivePlaylistWhoseSegmentsAll404Ends() async throws {
        let folder = try makeScratchFolder("reel-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for index in 0..<4 { text += "#EXTINF:1.0,\nmissing_\(index).ts\n" }
        try Data(text.utf8).write(to: folder.appendingPathComponent("live.m3u8"))
        try await withSampleServer(root: folder) { server in
            let (result, seconds) = try await HostileServerTests.play(server.url(for: "live.m3u8"))
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("gave up after 3 failed fetches in a row") && result.stderr.contains("HTTP 404"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            print("live playlist with missing segments: ended after \(String(format: "%.2f", seconds)) s")
        }
    }
}
