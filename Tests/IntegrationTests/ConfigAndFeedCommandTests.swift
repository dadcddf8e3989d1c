import Foundation
import ReelTestSupport
import Testing

/// `reel config` and `reel feed` as a user runs them: output shapes, warnings, one-line errors
/// with exit status 2, and the configuration layers every command accepts.
@Suite("reel config and reel feed")
struct ConfigAndFeedCommandTests {
    /// Every leaf command: each takes `--config` and `--set`.
    static let commands: [[String]] = [
        ["play"], ["inspect"], ["serve"], ["demo"], ["config", "defaults"], ["config", "show"], ["config", "check"],
        ["feed", "build"], ["feed", "visibility"], ["feed", "check-events"], ["feed", "report"], ["trace", "generate"],
        ["cache", "stats"], ["cache", "verify"], ["cache", "clear"], ["prefetch"], ["stress"],
    ]

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test(arguments: commands)
    func everyCommandTakesTheConfigurationLayers(command: [String]) async throws {
        let result = try await ReelProcess.run(command + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("--config") && result.stdout.contains("--set"), "reel \(command.joined(separator: " ")) --help")
    }

    @Test func defaultsListEveryKeyAsJSON() async throws {
        let result = try await ReelProcess.run(["config", "defaults", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["reelVersion"] as? String == "0.1.0")
        let keys = try #require(object["keys"] as? [[String: Any]])
        #expect(keys.count > 80)
        for key in keys {
            #expect(key["key"] is String && key["type"] is String && key["description"] is String && key.keys.contains("default"))
        }
    }

    @Test func showPrintsOneFlatObjectWithTheLayersApplied() async throws {
        let folder = try makeScratchFolder("reel-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.write(#"{"prefetch": {"maxConcurrent": 3}, "decoder.poolSize": {"value": 6, "minVersion": "99.0"}}"#, "a.json", in: folder)
        let result = try await ReelProcess.run(["config", "show", "--json", "--config", file, "--set", "device.isLowEnd=yes"])
        #expect(result.status == 0, "\(result.stderr)")
        let values = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(values["prefetch.maxConcurrent"] as? Int == 3)
        #expect(values["device.isLowEnd"] as? Bool == true)
        #expect(values["decoder.poolSize"] as? Int == 4, "a value for a later app version must not apply")
        #expect(result.stderr.contains("needs app version 99.0"))
    }

    @Test func unknownKeysAreRefusedWithTheNearestName() async throws {
        let result = try await ReelProcess.run(["config", "show", "--set", "prefetch.maxConcurent=3", "--set", "visiblity.short.ready=0.3", "--set", "visiblity.x=1"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("unknown key 'prefetch.maxConcurent' (nearest known key: 'prefetch.maxConcurrent')"))
        #expect(result.stderr.contains("unknown key 'visiblity.short.ready' (nearest known key: 'visibility.short.ready')"))
        #expect(result.stderr.contains("unknown key 'visiblity.x' (nearest known section: 'visibility')"))
    }

    /// One rule for a misspelled key wherever a key is named: refused before anything runs,
    /// exit 2, the nearest key named, the option it came from too.
    @Test func aMisspelledKeyIsRefusedInEveryPlaceAKeyIsNamed() async throws {
        let folder = try makeScratchFolder("reel-typo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.write(#"{"prefetch.maxConcurent": 4}"#, "typo.json", in: folder)
        let session = ["feed", "simulate", "--pattern", "browse", "--seconds", "2"]
        let places: [(String, [String])] = [
            ("--set", session + ["--set", "prefetch.maxConcurent=4"]),
            ("--compare", session + ["--compare", "prefetch.maxConcurent=4"]),
            ("--vary", ["feed", "sweep", "--pattern", "browse", "--seconds", "2",
                        "--vary", "prefetch.maxConcurent=2,4", "--output", folder.appendingPathComponent("sweep").path]),
            ("config file 'typo.json'", session + ["--config", file]),
            ("config file '\(file)'", ["config", "check", file]),
        ]
        for (layer, arguments) in places {
            let result = try await ReelProcess.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.stderr.contains("unknown key 'prefetch.maxConcurent' (nearest known key: 'prefetch.maxConcurrent')"),
                    "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(layer.hasPrefix("config file") ? "typo.json" : layer + ":"), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("ttff") && !result.stdout.contains("Trace:"), "\(arguments) ran: \(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("sweep/cells").path), "the sweep ran cells")
    }

    /// `config check` is a CI gate: a warning (a versioned value that does not apply at the app's
    /// version) fails it with exit 1; with the app's version given, the same file passes.
    @Test func checkFailsOnAWarning() async throws {
        let folder = try makeScratchFolder("reel-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.write(#"{"decoder.poolSize": {"value": 6, "minVersion": "24.0"}}"#, "versioned.json", in: folder)
        let old = try await ReelProcess.run(["config", "check", file])
        #expect(old.status == 1, "\(old.output)")
        #expect(old.stderr.contains("needs app version 24.0") && old.stdout.contains("versioned.json: warned (0 keys set, 1 warning)"), "\(old.output)")
        let current = try await ReelProcess.run(["config", "check", file, "--set", "app.version=24.1"])
        #expect(current.status == 0, "\(current.output)")
        #expect(current.stdout.contains("versioned.json: ok (1 key set, 0 warnings)"), "\(current.output)")
    }

    @Test(arguments: [
        (#"{"decoder.poolSize": 100}"#, "decoder.poolSize"),
        (#"{"device.isLowEnd": "maybe"}"#, "device.isLowEnd"),
        ("[1, 2]", "JSON object"),
        ("{not json", "not valid JSON"),
    ])
    func badConfigurationIsOneLineAndExitTwo(text: String, names: String) async throws {
        let folder = try makeScratchFolder("reel-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.write(text, "bad.json", in: folder)
        for command in [["config", "show"], ["feed", "build"]] {
            let result = try await ReelProcess.run(command + ["--config", file])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(names) && result.stderr.contains("bad.json"), "\(result.stderr)")
        }
    }

    @Test func checkReportsEveryFileAndFailsIfAnyIsBad() async throws {
        let folder = try makeScratchFolder("reel-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = try Self.write(#"{"prefetch.maxConcurrent": 0}"#, "bad.json", in: folder)
        let good = try Self.write(#"{"prefetch.maxConcurrent": 2}"#, "good.json", in: folder)
        let result = try await ReelProcess.run(["config", "check", bad, good])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.json") && result.stdout.contains("good.json: ok"))
    }

    /// Both bundled catalogs build; the default feed holds s01-s16 once each, the ladders' feed
    /// every master once, and between them every bundled video appears.
    @Test func feedBuildPrintsWidgetsAndPages() async throws {
        let samples = try SampleIndex.load().samples
        var seen: Set<String> = []
        for (catalog, expected) in [("video-feed.json", samples.filter { $0.name <= "s16" }),
                                    ("video-feed-abr.json", samples.filter { $0.packaging == "hls-master" || $0.packaging == "dash" })] {
            let result = try await ReelProcess.run(["feed", "build", "--feed", PackagePaths.samples.appendingPathComponent(catalog).path, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let build = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let widgets = try #require(build["widgets"] as? [[String: Any]])
            let videos = widgets.flatMap { $0["videos"] as? [[String: Any]] ?? [] }
            #expect(videos.count == expected.count, "\(catalog): every video appears once")
            for video in videos {
                let url = try #require(video["url"] as? String, "\(video)")
                let name = try #require(expected.first { url.hasSuffix($0.entry) }, "\(catalog): \(url) is none of its samples")
                seen.insert(name.name)
            }
            #expect(Set(widgets.compactMap { $0["type"] as? String }).isSubset(of: ["short", "carousel", "merch"]))
            #expect((build["pages"] as? [Any])?.isEmpty == false)
        }
        #expect(seen == Set(samples.map(\.name)), "videos in no catalog: \(Set(samples.map(\.name)).subtracting(seen).sorted())")
    }

    @Test func badCatalogsAndTracesAreOneLineAndExitTwo() async throws {
        let folder = try makeScratchFolder("reel-feed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try Self.write(#"{"video_source": {}}"#, "catalog.json", in: folder)
        let built = try await ReelProcess.run(["feed", "build", "--feed", catalog])
        #expect(built.status == 2 && built.stderr.contains("catalog.json") && built.stderr.split(separator: "\n").count == 1, "\(built.stderr)")
        let trace = try Self.write("{\"t\": 1, \"y\": 0}\r\n{\"t\": 0.5, \"y\": 10}\r\n", "trace.jsonl", in: folder)
        let replayed = try await ReelProcess.run(["feed", "visibility", "--trace", trace])
        #expect(replayed.status == 2, "\(replayed.stderr)")
        #expect(replayed.stderr.contains("trace.jsonl' line 2: time goes backwards"), "\(replayed.stderr)")
    }

    @Test func generatedTracesReplayWithoutWarnings() async throws {
        let folder = try makeScratchFolder("reel-trace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("mixed.jsonl").path
        let feed = PackagePaths.samples.appendingPathComponent("video-feed.json").path
        let generated = try await ReelProcess.run(["trace", "generate", "--pattern", "mixed", "--seconds", "30", "--seed", "3", "--feed", feed, "--output", trace])
        #expect(generated.status == 0, "\(generated.stderr)")
        let replayed = try await ReelProcess.run(["feed", "visibility", "--trace", trace, "--feed", feed, "--json"])
        #expect(replayed.status == 0 && replayed.stderr.isEmpty, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("\"event\":\"transition\""))
        let unknown = try await ReelProcess.run(["trace", "generate", "--pattern", "zigzag"])
        #expect(unknown.status != 0 && unknown.stderr.contains("browse, fling, carousel, mixed"))
    }

    @Test func theBundledTracesReplayCleanly() async throws {
        let feed = PackagePaths.samples.appendingPathComponent("video-feed.json").path
        for name in ["browse", "fling", "carousel", "mixed"] {
            let trace = PackagePaths.samples.appendingPathComponent("traces/\(name).jsonl").path
            let result = try await ReelProcess.run(["feed", "visibility", "--trace", trace, "--feed", feed])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(name): \(result.stderr)")
        }
    }
}
