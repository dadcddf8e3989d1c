import Foundation
import ReelCore
import ReelManifest
import ReelTestSupport
import Testing

@testable import ReelNet

/// Feeds HLSPlaylistWriter's output to the FFmpeg 5.1 command-line tools on this machine: the
/// rewritten playlist must decode to the same frames as the playlist FFmpeg's muxer wrote
/// (byte ranges, fMP4 maps, AES-128 keys, discontinuities), and a DASH rendition rendered as HLS
/// must decode completely. Media is generated into a temporary folder with `ffmpeg -f lavfi`.
@Suite(.serialized) struct ManifestWriterFFmpegTests {
    /// A temporary folder removed when the test ends.
    final class Workspace {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-manifest-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    }

    static func tool(_ name: String) throws -> URL {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for directory in paths + ["/usr/bin", "/usr/local/bin"] {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ReelError(.notFound, "\(name) is not on PATH; these tests need FFmpeg 5.1's command-line tools")
    }

    /// Runs `ffmpeg` without blocking a cooperative thread: the continuation resumes from the
    /// process's termination handler. Holds one of the `ProcessSlots` every child process of the
    /// tests shares. Returns stderr; throws when the exit status is not 0.
    @discardableResult
    static func ffmpeg(_ arguments: [String], in workspace: Workspace) async throws -> String {
        await ProcessSlots.shared.acquire()
        do {
            let stderr = try await runFFmpeg(arguments, in: workspace)
            await ProcessSlots.shared.release()
            return stderr
        } catch {
            await ProcessSlots.shared.release()
            throw error
        }
    }

    private static func runFFmpeg(_ arguments: [String], in workspace: Workspace) async throws -> String {
        let process = Process()
        process.executableURL = try tool("ffmpeg")
        process.arguments = ["-nostdin", "-v", "error"] + arguments
        process.currentDirectoryURL = workspace.url
        let errorFile = workspace.file("stderr-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw ReelError(.cacheIO, "cannot create \(errorFile.path)")
        }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardError = errorHandle
        process.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try errorHandle.close()
        let stderr = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
        guard status == 0 else {
            throw ReelError(.decodeFailed, "ffmpeg \(arguments.joined(separator: " ")) exited \(status): \(stderr)")
        }
        return stderr
    }

    /// The decoded frames of `playlist` as `ffmpeg -f framemd5` lines (hashes only).
    static func frameHashes(_ playlist: URL, in workspace: Workspace) async throws -> [String] {
        let output = workspace.file("frames-\(UUID().uuidString).txt")
        let stderr = try await ffmpeg(
            ["-allowed_extensions", "ALL", "-i", playlist.path, "-map", "0:v:0", "-f", "framemd5", output.path], in: workspace)
        #expect(stderr.isEmpty, "ffmpeg complained: \(stderr)")
        let text = try String(contentsOf: output, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
    }

    static let source = ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=10", "-t", "3", "-c:v", "libx264", "-g", "10"]

    /// Parses `name`, writes it back with absolute file URLs, and compares decoded frames.
    static func expectSameFrames(_ name: String, in workspace: Workspace, check: (String) -> Void = { _ in }) async throws {
        let original = workspace.file(name)
        guard case .media(let playlist) = try HLSPlaylistParser.parse(try Data(contentsOf: original), url: original) else {
            Issue.record("\(name) is not a media playlist")
            return
        }
        let text = HLSPlaylistWriter().render(playlist)
        check(text)
        let rewritten = workspace.file("rewritten-\(name)")
        try Data(text.utf8).write(to: rewritten)
        let expected = try await frameHashes(original, in: workspace)
        let actual = try await frameHashes(rewritten, in: workspace)
        #expect(expected.count == 30)
        #expect(actual == expected, "\(text)")
    }

    @Test func byteRangedTransportStream() async throws {
        let workspace = try Workspace()
        try await Self.ffmpeg(
            Self.source + ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_flags", "single_file", "ts.m3u8"],
            in: workspace)
        try await Self.expectSameFrames("ts.m3u8", in: workspace) { #expect($0.contains("#EXT-X-BYTERANGE:")) }
    }

    @Test func fragmentedMP4WithMapByteRange() async throws {
        let workspace = try Workspace()
        try await Self.ffmpeg(
            Self.source + [
                "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4", "-hls_flags",
                "single_file", "fmp4.m3u8",
            ], in: workspace)
        try await Self.expectSameFrames("fmp4.m3u8", in: workspace) { #expect($0.contains(",BYTERANGE=\"")) }
    }

    @Test func aes128WithExplicitIV() async throws {
        let workspace = try Workspace()
        try Data((0..<16).map { UInt8($0 * 7) }).write(to: workspace.file("enc.key"))
        let info = "enc.key\n\(workspace.file("enc.key").path)\n00112233445566778899AABBCCDDEEFF\n"
        try Data(info.utf8).write(to: workspace.file("keyinfo"))
        try await Self.ffmpeg(
            Self.source + [
                "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_key_info_file", "keyinfo",
                "-hls_segment_filename", "enc%d.ts", "enc.m3u8",
            ], in: workspace)
        try await Self.expectSameFrames("enc.m3u8", in: workspace) {
            #expect($0.contains("#EXT-X-KEY:METHOD=AES-128,URI=\"file://"))
            #expect($0.contains("IV=0x00112233445566778899AABBCCDDEEFF"))
        }
    }

    @Test func discontinuityBetweenTwoEncodes() async throws {
        let workspace = try Workspace()
        try await Self.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=10", "-t", "1.5", "-c:v", "libx264", "-g", "5", "-f", "hls",
             "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_filename", "a%d.ts", "a.m3u8"], in: workspace)
        try await Self.ffmpeg(
            ["-f", "lavfi", "-i", "smptebars=size=96x96:rate=10", "-t", "1.5", "-c:v", "libx264", "-g", "5", "-f", "hls",
             "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_filename", "b%d.ts", "b.m3u8"], in: workspace)
        func body(_ name: String) throws -> [String] {
            try String(contentsOf: workspace.file(name), encoding: .utf8).split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("#EXTINF") || !$0.hasPrefix("#") }
        }
        let joined = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"] + (try body("a.m3u8"))
            + ["#EXT-X-DISCONTINUITY"] + (try body("b.m3u8")) + ["#EXT-X-ENDLIST"]
        try Data(joined.joined(separator: "\n").utf8).write(to: workspace.file("joined.m3u8"))
        try await Self.expectSameFrames("joined.m3u8", in: workspace) { #expect($0.contains("#EXT-X-DISCONTINUITY\n")) }
    }

    @Test func dashRenditionAsHLS() async throws {
        let workspace = try Workspace()
        try await Self.ffmpeg(
            Self.source + ["-f", "dash", "-seg_duration", "1", "-use_template", "1", "-use_timeline", "1", "m.mpd"],
            in: workspace)
        let mpd = workspace.file("m.mpd")
        let dash = try DASHManifestParser.parse(try Data(contentsOf: mpd), url: mpd)
        let video = try #require(dash.videoRenditions.first)
        #expect(video.segments.count == 3)
        let text = HLSPlaylistWriter().render(video)
        try Data(text.utf8).write(to: workspace.file("from-dash.m3u8"))
        let frames = try await Self.frameHashes(workspace.file("from-dash.m3u8"), in: workspace)
        #expect(frames.count == 30, "\(text)")
    }
}
