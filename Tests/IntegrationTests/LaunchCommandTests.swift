import Foundation
import ReelCore
import ReelFeed
import ReelServer
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel launch simulate` as a user runs it: a scripted week against the CDN simulator, the server
/// stopped midway, a SIGKILL mid-run, bad input.
@Suite("reel launch simulate")
struct LaunchCommandTests {
    static let samples = PackagePaths.samples.appendingPathComponent("launch")
    static let flags = samples.appendingPathComponent("flags.json").path
    /// A starved test machine must not refuse an asset for the time its check waited for a core.
    static let patient = ["--set", "launch.splash.checkSeconds=120"]

    /// One expected line of `--json` output.
    struct Expected: CustomStringConvertible {
        var t: String
        var event: String
        var decision: String
        var splash: String?
        var reason: String
        var splashReason: String?

        var description: String { "\(t) \(event): \(decision) \(splash ?? "-") (\(reason); \(splashReason ?? "-"))" }

        static func splash(_ t: String, _ event: String, _ id: String) -> Expected {
            Expected(t: t, event: event, decision: "splash", splash: id, reason: "eligible", splashReason: nil)
        }
        static func loading(_ t: String, _ event: String, _ reason: String, _ splashReason: String) -> Expected {
            Expected(t: t, event: event, decision: "loadingAnimation", splash: nil, reason: reason, splashReason: splashReason)
        }
        static func nothing(_ t: String, _ event: String, _ splashReason: String) -> Expected {
            Expected(t: t, event: event, decision: "nothing", splash: nil, reason: "quickReturn", splashReason: splashReason)
        }
        static func away(_ t: String, _ event: String = "background") -> Expected {
            Expected(t: t, event: event, decision: "nothing", splash: nil, reason: "notALaunch", splashReason: nil)
        }

        var line: String { #"{"t": "\#(t)", "event": "\#(event)"}"# }
    }

    /// Checks `--json` output against the expected decisions, line by line.
    static func check(_ stdout: String, _ expected: [Expected], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count, "\(stdout)", sourceLocation: sourceLocation)
        for (line, want) in zip(lines, expected) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let got = Expected(t: object["t"] as? String ?? "?", event: object["event"] as? String ?? "?",
                               decision: object["decision"] as? String ?? "?", splash: object["splash"] as? String,
                               reason: object["reason"] as? String ?? "?", splashReason: object["splashReason"] as? String)
            #expect(got.description == want.description, "\(object["detail"] as? String ?? "")", sourceLocation: sourceLocation)
            #expect(object.keys.contains("splash") && object.keys.contains("splashReason"), "null keys are written", sourceLocation: sourceLocation)
        }
    }

    /// A served folder: the sample assets and a configuration of four splashes, the last one
    /// (Cyber Monday, priority 0, from 30 Nov) with an asset of its own.
    static func servedFolder() throws -> URL {
        let folder = try makeScratchFolder("reel-launch-served")
        for name in ["snowfall.json", "lanterns.json", "confetti.json"] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(at: samples.appendingPathComponent("confetti.json"), to: folder.appendingPathComponent("cyber.json"))
        var configuration = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: samples.appendingPathComponent("splash-config.json"))) as? [String: [[String: Any]]])
        configuration["holidaySplash"]?.append([
            "name": "Cyber Monday", "id": "cyber-monday", "startDateTime": "2026-11-30T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z",
            "assetUrl": "cyber.json", "displayTimeInterval": 60, "priority": 0,
        ])
        try JSONSerialization.data(withJSONObject: configuration).write(to: folder.appendingPathComponent("splash-config.json"))
        return folder
    }

    static func write(_ expected: [Expected], to url: URL) throws {
        try Data(expected.map(\.line).joined(separator: "\n").utf8).write(to: url)
    }

    static let firstHalf: [Expected] = [
        .loading("2026-11-24T08:00:00Z", "launch", "firstLaunch", "notConfigured"),
        .away("2026-11-24T08:05:00Z"),
        .splash("2026-11-24T08:20:00Z", "foreground", "snowfall"),
        .away("2026-11-24T08:30:00Z"),
        .loading("2026-11-24T12:30:00Z", "launch", "newSession", "intervalNotElapsed"),
        .away("2026-11-24T12:40:00Z"),
        .splash("2026-11-24T21:00:00Z", "foreground", "snowfall"),
        .away("2026-11-24T21:15:00Z"),
        .splash("2026-11-25T23:50:00Z", "launch", "snowfall"),
        .away("2026-11-25T23:55:00Z"),
        // The lanterns' window opened at midnight, while the app was in the background.
        .splash("2026-11-26T00:10:00Z", "foreground", "lanterns"),
        .away("2026-11-26T00:20:00Z"),
    ]

    static let secondHalf: [Expected] = [
        // Black Friday's asset came three days ahead of its window, before the server stopped.
        .splash("2026-11-27T07:00:00Z", "launch", "black-friday"),
        .away("2026-11-27T07:00:04Z", "crash"),
        .nothing("2026-11-27T07:00:30Z", "launch", "crashGuard"),
        .away("2026-11-27T07:10:00Z"),
        .splash("2026-11-27T09:00:00Z", "foreground", "lanterns"),
        .away("2026-11-27T09:20:00Z"),
        .splash("2026-11-27T09:25:00Z", "foreground", "snowfall"),
        .away("2026-11-27T09:40:00Z"),
        .splash("2026-11-27T14:00:00Z", "foreground", "black-friday"),
        .away("2026-11-27T14:30:00Z"),
        .splash("2026-11-28T10:00:00Z", "launch", "black-friday"),
        .away("2026-11-28T10:30:00Z"),
        .splash("2026-11-29T10:00:00Z", "launch", "black-friday"),
        .away("2026-11-29T10:20:00Z"),
        // Cyber Monday ranks first but its asset was never fetched: the next best shows.
        .splash("2026-11-30T10:00:00Z", "launch", "lanterns"),
        .away("2026-11-30T10:15:00Z"),
        .splash("2026-11-30T10:20:00Z", "foreground", "snowfall"),
        .away("2026-11-30T10:30:00Z"),
        .nothing("2026-11-30T10:40:00Z", "foreground", "assetNotCached"),
    ]

    @Test func aWeekOfLaunchesWithTheServerStoppedMidway() async throws {
        let served = try Self.servedFolder()
        let scratch = try makeScratchFolder("reel-launch-week")
        defer {
            try? FileManager.default.removeItem(at: served)
            try? FileManager.default.removeItem(at: scratch)
        }
        let state = scratch.appendingPathComponent("state").path
        let first = scratch.appendingPathComponent("first.jsonl"), second = scratch.appendingPathComponent("second.jsonl")
        try Self.write(Self.firstHalf, to: first)
        try Self.write(Self.secondHalf, to: second)
        let configuration: String = try await withSampleServer(root: served) { server in
            let configuration = server.url(for: "/splash-config.json").absoluteString
            let run = try await ReelProcess.run(["launch", "simulate", "--events", first.path, "--splash-config", configuration,
                                                 "--state", state, "--config", Self.flags, "--json"] + Self.patient)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            try Self.check(run.stdout, Self.firstHalf)
            let bill = server.bill()
            for path in ["/snowfall.json", "/lanterns.json", "/confetti.json"] {
                #expect(bill.paths[path]?.responses(status: 200) == 1, "\(path) fetched once: \(bill.paths[path].map { "\($0)" } ?? "never")")
            }
            #expect((bill.paths["/splash-config.json"]?.requests ?? 0) >= 3, "refetched when stale")
            #expect(bill.paths["/cyber.json"] == nil, "more than 72 h ahead of its window until the server stopped")
            return configuration
        }
        let run = try await ReelProcess.run(["launch", "simulate", "--events", second.path, "--splash-config", configuration,
                                             "--state", state, "--config", Self.flags, "--json"] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        try Self.check(run.stdout, Self.secondHalf)
        #expect(run.stderr.contains("warning: splash configuration '\(configuration)' could not be fetched"), "\(run.stderr)")
        #expect(run.stderr.contains("warning: splash 'cyber-monday': asset"), "\(run.stderr)")
        // Black Friday's asset went once its window ended; Cyber Monday's never came.
        let assets = try FileManager.default.contentsOfDirectory(atPath: state + "/assets")
        #expect(assets.count == 2, "\(assets)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/tmp").isEmpty)
    }

    @Test func aSIGKILLMidRunLeavesAStateThatLoads() async throws {
        let scratch = try makeScratchFolder("reel-launch-sigkill")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let state = scratch.appendingPathComponent("state").path
        let week = try String(contentsOf: Self.samples.appendingPathComponent("week.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let events = scratch.appendingPathComponent("week.jsonl"), rest = scratch.appendingPathComponent("rest.jsonl")
        try Data(week.joined(separator: "\n").utf8).write(to: events)
        try Data(week.dropFirst(4).joined(separator: "\n").utf8).write(to: rest)
        try await withSampleServer(root: Self.samples) { server in
            let configuration = server.url(for: "/splash-config.json").absoluteString
            // Both first downloads stall halfway, and the low-speed watchdog is off for the run: the
            // process is caught with the first launch decided and the configuration stored.
            for path in ["/snowfall.json", "/lanterns.json"] { server.injectFault(.stall(afterBytes: 2000), path: path) }
            let running = try await ReelProcess.start(["launch", "simulate", "--events", events.path, "--splash-config", configuration,
                                                       "--state", state, "--config", Self.flags, "--json",
                                                       "--set", "network.lowSpeedTimeMs=3600000"])
            let stalled = await server.waitForBill { bill in
                ["/snowfall.json", "/lanterns.json"].allSatisfy { bill.paths[$0].map { $0.inFlightRequests > 0 && $0.bodyBytes >= 2000 } ?? false }
            } != nil
            if running.process.isRunning { kill(running.pid, SIGKILL) }
            let killed = await running.finish()
            #expect(stalled, "the downloads never stalled: \(killed.stdout) \(killed.stderr)")
            #expect(killed.status == SIGKILL, "the process was not killed: \(killed.status) \(killed.stderr)")

            // The next run loads the state: not a first launch, the configuration cached.
            let run = try await ReelProcess.run(["launch", "simulate", "--events", rest.path, "--splash-config", configuration,
                                                 "--state", state, "--config", Self.flags, "--json"] + Self.patient)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stderr.contains("corrupt"), "\(run.stderr)")
            try Self.check(run.stdout.split(separator: "\n").prefix(3).joined(separator: "\n"), [
                .loading("2026-11-24T12:30:00Z", "launch", "newSession", "assetNotCached"),
                .away("2026-11-24T12:40:00Z"),
                .splash("2026-11-24T21:00:00Z", "foreground", "snowfall"),
            ])
            #expect(run.stdout.split(separator: "\n").count == week.count - 4)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/tmp").isEmpty)
    }

    @Test func badEventsAreRefusedByLine() async throws {
        let scratch = try makeScratchFolder("reel-launch-bad")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let events = scratch.appendingPathComponent("events.jsonl")
        try Data(#"{"t": "2026-11-24T08:00:00Z", "event": "launch"}\#n{"t": "2026-11-24T09:00:00Z", "event": "sleep"}"#.utf8).write(to: events)
        let arguments = ["launch", "simulate", "--splash-config", "http://127.0.0.1:9/splash.json", "--state", scratch.appendingPathComponent("state").path]
        let bad = try await ReelProcess.run(arguments + ["--events", events.path])
        #expect(bad.status == 2)
        #expect(bad.stderr == "reel launch simulate: events file '\(events.path)' line 2: event 'sleep' is not one of launch, foreground, background, crash\n")
        #expect(bad.stdout.isEmpty)
        let missing = try await ReelProcess.run(arguments + ["--events", scratch.appendingPathComponent("none.jsonl").path])
        #expect(missing.status == 2 && missing.stderr.contains("not found"), "\(missing.stderr)")
    }

    @Test func anUnreachableConfigurationIsAWarningNotAFailure() async throws {
        let scratch = try makeScratchFolder("reel-launch-unreachable")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let events = scratch.appendingPathComponent("events.jsonl")
        try Self.write([.loading("2026-11-24T08:00:00Z", "launch", "firstLaunch", "notConfigured"), .away("2026-11-24T08:01:00Z")], to: events)
        let run = try await ReelProcess.run(["launch", "simulate", "--events", events.path, "--splash-config", "http://127.0.0.1:9/splash.json",
                                             "--state", scratch.appendingPathComponent("state").path, "--config", Self.flags, "--json"] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        try Self.check(run.stdout, [.loading("2026-11-24T08:00:00Z", "launch", "firstLaunch", "notConfigured"), .away("2026-11-24T08:01:00Z")])
        #expect(run.stderr.contains("warning: splash configuration 'http://127.0.0.1:9/splash.json' could not be fetched"), "\(run.stderr)")
    }

    @Test func theHumanOutputSaysWhyInWords() async throws {
        let scratch = try makeScratchFolder("reel-launch-human")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try await ReelProcess.run(["launch", "simulate", "--events", Self.samples.appendingPathComponent("week.jsonl").path,
                                             "--splash-config", Self.samples.appendingPathComponent("splash-config.json").path,
                                             "--state", scratch.appendingPathComponent("state").path, "--set", "launch.splash.enabled=true"] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first == "2026-11-24T08:00:00Z  launch      loadingAnimation 1.7 s (firstLaunch; no splash: notConfigured: no splash configuration cached)")
        #expect(lines.contains { $0.hasPrefix("2026-11-27T07:00:30Z  launch      nothing (quickReturn; no splash: crashGuard: ") })
        #expect(lines.last == "28 events: 11 splashes, 2 loading animations, 15 nothing")
    }
}
