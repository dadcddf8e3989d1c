import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// The live progress line: drawn on a terminal (a pseudo terminal made with python3's `pty`),
/// rewritten in place (`\r`, erase line), and absent when the output is a pipe or JSON.
@Suite("Progress on a terminal")
struct TerminalProgressTests {
    /// Runs `reel` under a pseudo terminal; everything it wrote to it, and its exit status.
    static let ptyScript = """
        import os, pty, sys
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        out = b""
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        _, status = os.waitpid(pid, 0)
        sys.stdout.buffer.write(out)
        sys.exit(os.waitstatus_to_exitcode(status))
        """

    static func onTerminal(_ arguments: [String]) async throws -> ChildProcess.Result {
        let python = try #require(Tool.find("python3"), "python3 is not installed")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-xdg-\(UUID().uuidString)")
        return try await ChildProcess.run(python, ["-c", ptyScript, PackagePaths.reelBinary.path] + arguments,
                                          environment: ["XDG_CACHE_HOME": scratch.path], scratch: scratch)
    }

    static let redraw = "\r\u{1B}[K"

    @Test func aPlayShowsItsMediaTimeFpsBufferBitrateAndBytes() async throws {
        let input = PackagePaths.samples.appendingPathComponent("streams/s11/index.m3u8").path
        let result = try await Self.onTerminal(["play", input, "--seconds", "2"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.stdout.components(separatedBy: Self.redraw).filter { $0.hasPrefix("play: ") }
        #expect(lines.count >= 2, "no live line: \(result.stdout.debugDescription)")
        let last = try #require(lines.last)
        for part in ["s shown", "fps", "buffer", "kbps", "KB"] {
            #expect(last.contains(part), "'\(part)' missing from \(last.debugDescription)")
        }
        // The summary starts on a clean line after it.
        #expect(result.stdout.contains(Self.redraw + "TTFF") || result.stdout.contains("\nTTFF"), "\(result.stdout.debugDescription)")

        let json = try await Self.onTerminal(["play", input, "--seconds", "1", "--json"])
        #expect(json.status == 0 && !json.stdout.contains(Self.redraw), "--json draws no live line: \(json.stdout.debugDescription)")
        let piped = try await ReelProcess.run(["play", input, "--seconds", "1"])
        #expect(piped.status == 0 && !piped.output.contains("\u{1B}["), "a pipe gets no live line: \(piped.output.debugDescription)")
    }

    @Test func aFeedRunShowsTraceTimePlaysAndFastStarts() async throws {
        let samples = PackagePaths.samples
        let result = try await Self.onTerminal(["feed", "run", "--serve", samples.path, "--feed", samples.appendingPathComponent("video-feed.json").path,
                                                "--pattern", "browse", "--seconds", "4", "--profile", "unlimited"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.stdout.components(separatedBy: Self.redraw).filter { $0.hasPrefix("feed: ") }
        let last = try #require(lines.last, "no live line: \(result.stdout.debugDescription)")
        #expect(last.contains("of 4.0 s of the trace") && last.contains("play") && last.contains("within 50 ms"), "\(last.debugDescription)")
    }
}
