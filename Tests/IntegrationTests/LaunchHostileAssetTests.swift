import Foundation
import ReelCore
import ReelServer
import ReelTestSupport
import Testing

/// Hostile splash assets through `reel launch simulate` and `reel splash check`, as a hostile
/// server would serve them: each is checked in a child process and refused with its problem;
/// the run goes on (exit 0), and the next run neither downloads nor checks them again.
@Suite("Hostile splash assets")
struct LaunchHostileAssetTests {
    static let samples = PackagePaths.samples.appendingPathComponent("launch")

    /// Small documents rlottie would spend gigabytes or forever on.
    static let hostile: [String: String] = [
        "repeaters": document(#"[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},"shapes":[{"ty":"gr","it":[{"ty":"gr","it":[{"ty":"gr","it":[{"ty":"rc","p":{"a":0,"k":[5,5]},"s":{"a":0,"k":[10,10]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}},\#(repeater)]},\#(repeater)]},\#(repeater)]}]}]"#),
        "dash": document(#"[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},"shapes":[{"ty":"gr","it":[{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[80,80]}},{"ty":"st","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"d":[{"n":"d","v":{"a":0,"k":-1}},{"n":"g","v":{"a":0,"k":-1}}]}]}]}]"#),
        // Within Reel's counts (about 200 MB of matte buffers); more than the 160 MiB the run gives a check.
        "mattes": document((0..<12).map { index in
            #"{"ty":4,"ind":\#(index + 1),"\#(index % 2 == 0 ? "td" : "tt")":1,"ip":0,"op":3,"st":0,"ks":{},"shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"a":0,"k":[1024,1024]},"s":{"a":0,"k":[2048,2048]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}]}"#
        }.joined(separator: ",").wrapped, side: 2048, frames: 3),
    ]
    static let repeater = #"{"ty":"rp","c":{"a":0,"k":1000},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#

    static func document(_ layers: String, side: Int = 100, frames: Int = 30) -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":\#(frames),"w":\#(side),"h":\#(side),"assets":[],"layers":\#(layers)}"#
    }

    static func servedFolder() throws -> URL {
        let folder = try makeScratchFolder("reel-launch-hostile")
        var splashes: [String] = []
        for (index, name) in (hostile.keys.sorted() + ["snowfall"]).enumerated() {
            if let json = hostile[name] {
                try Data(json.utf8).write(to: folder.appendingPathComponent("\(name).json"))
            } else {
                try FileManager.default.copyItem(at: samples.appendingPathComponent("snowfall.json"), to: folder.appendingPathComponent("snowfall.json"))
            }
            splashes.append(#"{"id": "\#(name)", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2027-01-01T00:00:00Z", "assetUrl": "\#(name).json", "priority": "\#(index)", "displayTimeInterval": "0"}"#)
        }
        try Data(#"{"holidaySplash": [\#(splashes.joined(separator: ","))]}"#.utf8).write(to: folder.appendingPathComponent("splash-config.json"))
        return folder
    }

    @Test func hostileAssetsAreRefusedAndTheRunGoesOn() async throws {
        let served = try Self.servedFolder()
        let scratch = try makeScratchFolder("reel-launch-hostile-run")
        defer {
            try? FileManager.default.removeItem(at: served)
            try? FileManager.default.removeItem(at: scratch)
        }
        let events = scratch.appendingPathComponent("events.jsonl")
        try Data(#"""
            {"t": "2026-11-24T08:00:00Z", "event": "launch"}
            {"t": "2026-11-24T08:01:00Z", "event": "background"}
            {"t": "2026-11-24T08:02:00Z", "event": "foreground"}
            """#.utf8).write(to: events)
        let state = scratch.appendingPathComponent("state").path
        try await withSampleServer(root: served) { server in
            let configuration = server.url(for: "/splash-config.json").absoluteString
            let arguments = ["launch", "simulate", "--events", events.path, "--splash-config", configuration, "--state", state,
                             "--set", "launch.splash.enabled=true", "--set", "launch.splash.checkMemoryMiB=160", "--json",
                             "--set", "launch.splash.checkSeconds=120"]
            let run = try await ReelProcess.run(arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n")
            #expect(lines.count == 3 && lines[2].contains(#""splash":"snowfall""#), "\(run.stdout)")
            for (name, problem) in [("dash", "has a dash of -1: dashes and gaps must be more than 0"),
                                    ("mattes", "rlottie needs more than the 160 MiB a check may use (launch.splash.checkMemoryMiB)"),
                                    ("repeaters", "a frame draws 1000000000 shapes")] {
                #expect(run.stderr.contains("warning: splash '\(name)': asset '\(server.url(for: "/\(name).json").absoluteString)' is not valid: ")
                        && run.stderr.contains(problem), "\(name): \(run.stderr)")
            }
            // The next run: refused assets are neither downloaded nor checked again. Its one
            // warning is that the same events replay on the state they left (the clock goes back).
            let again = try await ReelProcess.run(arguments)
            let warnings = again.stderr.split(separator: "\n")
            #expect(again.status == 0 && warnings.count == 1 && warnings[0].contains("the clock goes back"), "\(again.stderr)")
            for name in Self.hostile.keys.sorted() + ["snowfall"] {
                #expect(server.bill().paths["/\(name).json"]?.requests == 1, "\(name)")
            }
        }
    }

    @Test func splashCheckMeasuresInAChildAndSurvives() async throws {
        let scratch = try makeScratchFolder("reel-splash-hostile")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var paths: [String] = []
        for name in Self.hostile.keys.sorted() {
            let path = scratch.appendingPathComponent("\(name).json").path
            try Data(Self.hostile[name]!.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let run = try await ReelProcess.run(["splash", "check", "--json", "--set", "launch.splash.checkMemoryMiB=160", "--set", "launch.splash.checkSeconds=120"] + paths)
        #expect(run.status == 1, "\(run.stderr)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let reports = try #require(output["assets"] as? [[String: Any]], "\(run.stdout)")
        #expect(reports.count == 3 && reports.allSatisfy { $0["valid"] as? Bool == false })
        for report in reports {
            let check = try #require(report["check"] as? [String: Any], "\(report)")
            #expect((check["maxRSSBytes"] as? Int ?? 0) > 0 && (check["seconds"] as? Double ?? 999) < 240, "\(check)")
        }
        // The child is not a command for people.
        let help = try await ReelProcess.run(["splash", "--help"])
        #expect(help.status == 0 && !help.stdout.contains("check-asset"), "\(help.stdout)")
        let direct = try await ReelProcess.run(["splash", "check-asset"])
        #expect(direct.status != 0 && direct.stderr.contains("use reel splash check"), "\(direct.stderr)")
    }
}

private extension String {
    var wrapped: String { "[" + self + "]" }
}
