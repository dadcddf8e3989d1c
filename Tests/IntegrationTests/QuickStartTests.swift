import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// The README's quick start, tried as a new user would: a fresh clone of the repository (its
/// committed files only), the built `reel` on the PATH, and every command of the README's
/// quick-start blocks run as written, in order, in the clone. The commands are read from the
/// README between its markers, so the page and the test cannot drift. (`make install` itself is
/// `InstallTests`'.)
@Suite("The README's quick start")
struct QuickStartTests {
    static let begin = "<!-- quick start: begin", end = "<!-- quick start: end -->"

    /// The shell lines of the ```sh blocks between the markers, in order.
    static func commands(in readme: String) throws -> [String] {
        let lines = readme.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix(begin) }, "README.md has no '\(begin)' marker")
        let last = try #require(lines.firstIndex { $0.hasPrefix(end) }, "README.md has no '\(end)' marker")
        var commands: [String] = [], inBlock = false
        for line in lines[first..<last] {
            if line.hasPrefix("```") {
                inBlock = line == "```sh"
            } else if inBlock, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                commands.append(line)
            }
        }
        return commands
    }

    @Test func itsCommandsRunInAFreshClone() async throws {
        let git = try #require(Tool.find("git"), "git is not installed")
        let scratch = try makeScratchFolder("reel-quick-start")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let clone = scratch.appendingPathComponent("reel")
        let cloned = try await ChildProcess.run(git, ["clone", "--quiet", PackagePaths.root.path, clone.path])
        try #require(cloned.status == 0, "git clone: \(cloned.output)")

        let readme = try String(contentsOf: clone.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = try Self.commands(in: readme)
        // The three tasks: a play, an inspect, a trace, a feed run and a comparison at least.
        #expect(commands.count >= 5, "\(commands)")
        for task in ["reel play ", "reel feed run ", "--compare "] {
            #expect(commands.contains { $0.contains(task) }, "the quick start has no '\(task)': \(commands)")
        }
        let path = PackagePaths.reelBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        var outputs: [String] = []
        for command in commands {
            let result = try await ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", command],
                environment: ["PATH": path, "XDG_CACHE_HOME": scratch.appendingPathComponent("cache").path], directory: clone)
            #expect(result.status == 0, "'\(command)' exited \(result.status): \(result.output)")
            outputs.append(result.stdout)
        }
        // What the page says each gives.
        let output = outputs.joined(separator: "\n")
        #expect(output.contains("TTFF ") && output.contains("Video h264"), "no play summary: \(output.prefix(2000))")
        #expect(output.contains("b/a"), "no comparison: \(output.suffix(3000))")
        let pages = commands.flatMap { $0.matches(of: #/--report ([\w.-]+)/#).map { String($0.1) } }
        #expect(!pages.isEmpty)
        for page in pages {
            #expect(FileManager.default.fileExists(atPath: clone.appendingPathComponent(page).path), "no \(page)")
        }
    }

    /// The README's exit status table is the one `reel --help` prints.
    @Test func theExitStatusTableIsTheTools() async throws {
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let help = try await ReelProcess.run(["--help"])
        #expect(help.status == 0)
        let words = { (text: Substring) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let helpText = words(Substring(help.stdout))
        let table = try #require(readme.firstRange(of: "<!-- exit status: begin -->").map { readme[$0.upperBound...] })
        let rows = String(table).components(separatedBy: "\n").prefix { !$0.hasPrefix("<!-- exit status: end") }
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| status") }
        #expect(rows.count >= 9, "\(rows)")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count == 2, "\(row)")
            #expect(helpText.contains("\(cells[0]) \(words(Substring(cells[1])))"), "reel --help does not say '\(row)'")
        }
    }
}
