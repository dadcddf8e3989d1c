import Foundation
import Testing

/// The module ladder and the one way to start threads, read off the sources: a wrong import or a
/// raw thread fails here, whatever SwiftPM lets through (it allows importing any module it built).
@Suite("Architecture")
struct ArchitectureTests {
    /// The project's modules each module may import (DESIGN.md's ladder: the pure foundation,
    /// manifest library and feed domain at the bottom; network, media and launch above them; the
    /// engine an app embeds; the reports; the simulator apart; the harness; the CLI), and the C
    /// and server modules that belong to one layer only.
    static let allowed: [String: Set<String>] = [
        "ReelCore": [],
        "ReelManifest": ["ReelCore"],
        "ReelStore": ["ReelCore", "ReelManifest"],
        "ReelFeed": ["ReelCore"],
        "ReelNet": ["ReelCore", "ReelManifest", "ReelStore", "CCurl", "CSQLite", "CReelShims"],
        "ReelMedia": ["ReelCore", "ReelManifest", "ReelStore", "ReelNet", "CAVFormat", "CAVCodec", "CAVUtil", "CSWScale", "CSWResample", "CReelShims"],
        "ReelSplash": ["ReelCore", "ReelManifest", "ReelStore", "CRLottie"],
        "ReelLaunch": ["ReelCore", "ReelManifest", "ReelStore", "ReelNet", "ReelSplash"],
        "ReelEngine": ["ReelCore", "ReelManifest", "ReelStore", "ReelFeed", "ReelNet", "ReelMedia", "ReelSplash", "ReelLaunch"],
        "ReelReport": ["ReelCore", "ReelFeed", "ReelMedia", "ReelEngine"],
        "ReelServer": ["ReelCore", "NIOCore", "NIOPosix", "NIOHTTP1"],
        "ReelSim": ["ReelCore", "ReelManifest", "ReelStore", "ReelFeed", "ReelNet", "ReelMedia", "ReelEngine", "ReelServer"],
        "ReelHarness": ["ReelCore", "ReelManifest", "ReelStore", "ReelFeed", "ReelNet", "ReelMedia", "ReelEngine", "ReelReport", "ReelServer",
                        "ReelSim", "ReelSplash", "ReelLaunch"],
        "reel": ["ReelCore", "ReelManifest", "ReelStore", "ReelFeed", "ReelNet", "ReelMedia", "ReelEngine", "ReelReport", "ReelServer",
                 "ReelSim", "ReelHarness", "ReelSplash", "ReelLaunch"],
        // The viewer: an app on the public API (engine, feed source, launch, the network stack), its
        // SDL modules, and the harness only to serve the bundled samples (`harnessFiles`).
        "reel-view": ["ReelCore", "ReelManifest", "ReelStore", "ReelFeed", "ReelNet", "ReelMedia", "ReelEngine", "ReelSplash",
                      "ReelLaunch", "ReelHarness", "CSDL2", "CSDL2TTF"],
    ]

    /// The viewer's files that may use the harness: the session, which serves the samples with it.
    static let harnessFiles: Set<String> = ["ViewerSession.swift"]

    /// Modules whose import is restricted to the layers `allowed` names.
    static let restricted: Set<String> = Set(allowed.keys)
        .union(["CCurl", "CReelShims", "CAVFormat", "CAVCodec", "CAVUtil", "CSWScale", "CSWResample", "CRLottie", "CSQLite", "CSDL2", "CSDL2TTF"])

    static let sources = Fixtures.packageRoot.appendingPathComponent("Sources")

    /// Every Swift file under `folder`, relative path and text, outside build folders (`make bench`
    /// leaves `Benchmarks/.build` with the checkouts of every dependency).
    static func swiftFiles(under folder: URL) -> [(path: String, text: String)] {
        let paths = FileManager.default.subpaths(atPath: folder.path) ?? []
        let sources = paths.filter { $0.hasSuffix(".swift") && !$0.split(separator: "/").contains { $0.hasPrefix(".build") } }
        return sources.sorted().compactMap { path in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) else { return nil }
            return (path, text)
        }
    }

    /// The modules a file imports.
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").filter { $0 != "@testable" && $0 != "@_exported" }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return String(words[1])
        }
    }

    @Test func everyModuleImportsOnlyTheLayersBelowIt() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).sorted()
        #expect(Set(modules) == Set(Self.allowed.keys), "a module without a rung on the ladder: update `allowed`")
        var wrong: [String] = []
        var checked = 0
        for module in modules {
            let allowed = try #require(Self.allowed[module])
            for file in Self.swiftFiles(under: Self.sources.appendingPathComponent(module)) {
                checked += 1
                for imported in Self.imports(file.text) where imported != module && !allowed.contains(imported) {
                    // SwiftNIO belongs to the simulator alone.
                    if Self.restricted.contains(imported) || imported.hasPrefix("NIO") {
                        wrong.append("\(module)/\(file.path) imports \(imported)")
                    }
                }
            }
        }
        #expect(checked > 100, "found only \(checked) source files under \(Self.sources.path)")
        #expect(wrong.isEmpty, "imports against the ladder:\n\(wrong.joined(separator: "\n"))")
    }

    /// The viewer proves the public API is enough: it reaches the harness in one file (to serve the
    /// samples), and nothing `package` of the engine's modules (a `package` symbol would compile,
    /// being in the same package, so the import rule alone would not see it).
    @Test func theViewerUsesThePublicAPIAndTheHarnessOnlyToServe() throws {
        let files = Self.swiftFiles(under: Self.sources.appendingPathComponent("reel-view"))
        #expect(files.count >= 5, "found only \(files.count) files of the viewer")
        let harness = files.filter { Self.imports($0.text).contains("ReelHarness") }.map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(Set(harness).isSubset(of: Self.harnessFiles), "the viewer uses the harness outside \(Self.harnessFiles): \(harness)")
        // Package-level names of the engine an app cannot reach.
        let packageOnly = ["send(", ".settled()", "FeedPerformers", "PlaybackPerformers", "FeedPlayer", "PictureShelf", "TraceDriver"]
        var found: [String] = []
        for file in files {
            for name in packageOnly where file.text.contains(name) { found.append("\(file.path): \(name)") }
        }
        #expect(found.isEmpty, "the viewer uses what an app cannot: \(found)")
    }

    /// The `reel` CLI and the library stay headless: only the viewer's target links SDL.
    @Test func onlyTheViewerDependsOnSDL() throws {
        let manifest = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for target in Self.allowed.keys.sorted() {
            let start = try #require(manifest.range(of: "name: \"\(target)\",\n"), "no target \(target) in Package.swift")
            let end = try #require(manifest.range(of: "swiftSettings", range: start.upperBound..<manifest.endIndex))
            let linksSDL = manifest[start.upperBound..<end.lowerBound].contains("CSDL2")
            #expect(linksSDL == (target == "reel-view"), "\(target) \(linksSDL ? "depends" : "does not depend") on SDL")
        }
    }

    @Test func theEngineTargetDoesNotDependOnTheSimulatorOrSwiftNIO() throws {
        let manifest = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for target in ["ReelCore", "ReelManifest", "ReelFeed", "ReelNet", "ReelMedia", "ReelLaunch", "ReelEngine"] {
            let start = try #require(manifest.range(of: "name: \"\(target)\",\n"), "no target \(target) in Package.swift")
            let end = try #require(manifest.range(of: "swiftSettings", range: start.upperBound..<manifest.endIndex))
            let block = manifest[start.upperBound..<end.lowerBound]
            #expect(!block.contains("ReelServer") && !block.contains("swift-nio") && !block.contains("ReelHarness"),
                    "\(target) depends on the simulator's side: \(block)")
        }
    }

    /// The fuzzers link the pure modules only: no libcurl, no SQLite (the fuzz package builds in
    /// CI's short pass, and a parser's fuzzer should not need a network stack).
    @Test func theFuzzPackageLinksNeitherCurlNorSQLite() throws {
        let fuzz = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Fuzz/Package.swift"), encoding: .utf8)
        let products = Set(fuzz.matches(of: /\.product\(name: "(\w+)", package: "Reel"\)/).map { String($0.output.1) })
        #expect(!products.isEmpty)
        let pure: Set<String> = ["ReelCore", "ReelManifest", "ReelStore", "ReelFeed", "ReelSplash"]
        #expect(products.isSubset(of: pure), "the fuzz package links \(products.subtracting(pure).sorted())")
        // And those modules stay pure: none of them may import curl, SQLite or the network.
        for module in pure {
            let allowed = try #require(Self.allowed[module])
            #expect(allowed.isDisjoint(with: ["CCurl", "CSQLite", "ReelNet", "CReelShims"]), "\(module) may import \(allowed.sorted())")
        }
    }

    /// Threads start in one place (`DedicatedThread`), for the pool's workers, the dedicated
    /// executors and work queues and the loops; every other blocking job goes through
    /// `BlockingPool`. No Dispatch queue anywhere: its threads are nobody's to count or stop.
    @Test func noRawThreadStartsOutsideThePoolAndTheDedicatedExecutors() throws {
        let patterns = ["Thread {", "Thread(block", "Thread(target", "Thread.detachNewThread", "pthread_create(",
                        "Task.detached", "DispatchQueue(", "DispatchQueue.global(", "DispatchQueue.main"]
        let roots = ["Sources", "Tests", "Benchmarks"].map { Fixtures.packageRoot.appendingPathComponent($0) }
        var found: [String] = []
        for root in roots {
            for file in Self.swiftFiles(under: root) where !file.path.hasSuffix("Concurrency/DedicatedThread.swift")
                && !file.path.hasSuffix("ArchitectureTests.swift") {
                for pattern in patterns where file.text.contains(pattern) {
                    found.append("\(root.lastPathComponent)/\(file.path): \(pattern)")
                }
            }
        }
        #expect(found.isEmpty, "raw threads started outside DedicatedThread:\n\(found.joined(separator: "\n"))")
    }
}
