import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// `make install` into a temporary prefix, and the installed tool used from a folder outside the
/// repository, found on the PATH as a shell finds it. What `make install` builds by default (a
/// release build of the whole package with the Swift runtime linked in) takes minutes on two
/// cores, so the test installs the tool this suite built (`REEL=`) through the same target and
/// script, and checks from make's dry run that the default build is that static release build.
@Suite("make install")
struct InstallTests {
    /// swift-argument-parser's man page generator, built beside the tests (`make test` builds it).
    static func manualTool() throws -> URL {
        let tool = PackagePaths.builtProduct("generate-manual")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path),
                     "no \(tool.path): run `swift build --product generate-manual` (make test does)")
        return tool
    }

    /// Runs `command` with /bin/sh in `folder`, with `bin` first on the PATH.
    static func shell(_ command: String, bin: URL, in folder: URL) async throws -> ChildProcess.Result {
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let cache = folder.appendingPathComponent(".cache")
        return try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command],
                                          environment: ["PATH": path, "XDG_CACHE_HOME": cache.path], directory: folder)
    }

    @Test func installsIntoAPrefixAndRunsFromAnyFolder() async throws {
        let make = try #require(Tool.find("make"), "make is not installed")
        let scratch = try makeScratchFolder("reel-install")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A space in the prefix: every path in the target and the script is quoted.
        let prefix = scratch.appendingPathComponent("the prefix")
        let install = try await ChildProcess.run(make, [
            "--no-print-directory", "-C", PackagePaths.root.path, "install", "PREFIX=\(prefix.path)",
            "REEL=\(PackagePaths.reelBinary.path)", "MANUAL_TOOL=\(try Self.manualTool().path)",
        ])
        #expect(install.status == 0, "\(install.output)")
        #expect(install.stdout.contains("installed reel \(ReelVersion.current)"), "\(install.output)")

        let file = { (path: String) in prefix.appendingPathComponent(path) }
        let read = { (path: String) in (try? String(contentsOf: file(path), encoding: .utf8)) ?? "" }
        #expect(FileManager.default.isExecutableFile(atPath: file("bin/reel").path))
        #expect(FileManager.default.fileExists(atPath: file("share/reel/Samples/video-feed.json").path))
        #expect(FileManager.default.fileExists(atPath: file("share/reel/Samples/traces/mixed.jsonl").path))
        #expect(!FileManager.default.fileExists(atPath: file("share/reel/Samples/references").path), "the tests' references are not installed")
        let manual = read("share/man/man1/reel.1")
        for part in [".Nm reel", "feed run", "Exit status", "--compare", "\n.Pp\n130  interrupted"] {
            #expect(manual.contains(part), "the man page lacks '\(part)'")
        }
        #expect(!manual.contains("\n\n"), "a blank line in the man page (mdoc warns and joins the lines around it)")
        #expect(read("share/bash-completion/completions/reel").contains("_reel"))
        #expect(read("share/zsh/site-functions/_reel").contains("#compdef reel"))
        #expect(read("share/fish/vendor_completions.d/reel.fish").contains("complete -c 'reel'"))
        #expect(read("share/doc/reel/LICENSE").contains("Apache License"))
        #expect(read("share/doc/reel/NOTICE").contains("FFmpeg"))

        // Elsewhere: a folder with no Samples, the tool found on the PATH.
        let elsewhere = scratch.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let bin = file("bin")
        let version = try await Self.shell("reel --version", bin: bin, in: elsewhere)
        #expect(version.status == 0 && version.stdout == "\(ReelVersion.current)\n", "\(version.output)")
        // The default catalog is the installed samples' (`feed.catalogPath` = Samples/video-feed.json).
        let feed = try await Self.shell("reel feed build --pages 1 --json", bin: bin, in: elsewhere)
        #expect(feed.status == 0, "\(feed.output)")
        let json = try JSONParser.parse(feed.stdout)
        #expect(json["reelVersion"]?.string == ReelVersion.current.description)
        #expect((json["widgets"]?.array?.count ?? 0) > 0, "\(feed.stdout.prefix(300))")
        // The served folder too: a short feed run on the installed samples.
        let run = try await Self.shell("reel feed run --pattern browse --seconds 2 --profile unlimited --json", bin: bin, in: elsewhere)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.stdout.contains("\"plays\""), "\(run.stdout.prefix(300))")
    }

    /// A tool with no samples beside it and none in the folder names the option that gives them.
    @Test func withoutSamplesTheDefaultsNameTheirOption() async throws {
        let scratch = try makeScratchFolder("reel-no-samples")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let build = try await ChildProcess.run(PackagePaths.reelBinary, ["feed", "build"], directory: scratch)
        #expect(build.status == 2 && build.stderr.contains("--feed FILE") && build.stderr.contains("make install"), "\(build.output)")
        let run = try await ChildProcess.run(PackagePaths.reelBinary, ["feed", "run", "--seconds", "1"], directory: scratch)
        #expect(run.status == 2 && run.stderr.contains("--serve DIR"), "\(run.output)")
    }

    /// The default `make install` builds a release binary with the Swift runtime linked in.
    @Test func theDefaultBuildLinksTheSwiftRuntimeIn() async throws {
        let make = try #require(Tool.find("make"), "make is not installed")
        // -n prints the recipes without running them (no recipe of the target calls $(MAKE), which -n would run).
        let dry = try await ChildProcess.run(make, ["--no-print-directory", "-n", "-C", PackagePaths.root.path, "install", "PREFIX=/nonexistent"],
                                             timeout: .seconds(30))
        #expect(dry.status == 0, "\(dry.output)")
        #expect(dry.stdout.contains("build -c release --static-swift-stdlib --product reel"), "\(dry.stdout)")
        #expect(dry.stdout.contains("scripts/install.sh"), "\(dry.stdout)")
    }
}
