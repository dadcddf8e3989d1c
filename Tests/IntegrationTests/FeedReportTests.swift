import Foundation
import OrderedCollections
import ReelCore
import ReelFeed
import ReelTestSupport
import Testing

/// `reel feed report` end to end: two saved runs become one HTML page that a real browser
/// (headless Chromium) draws into a picture that is not blank; the same files give the same
/// bytes in another process; bad files fail with one line and exit 2.
@Suite("reel feed report")
struct FeedReportTests {
    /// A scroll through `widgets` widgets (shorts, carousels of three, merch), as JSON lines the
    /// way `reel feed run --events` writes them: visibility, prefetch, thumbnail and playback
    /// fetches, plays with their first frames, a stall and an error.
    static func eventLines(widgets: Int, seconds: Double, prefetch: Bool) -> String {
        var random = SeededRandom(seed: prefetch ? 11 : 12)
        var events: [(Double, OrderedDictionary<String, JSONValue>)] = []
        func add(_ t: Double, _ type: String, _ fields: OrderedDictionary<String, JSONValue>) {
            var object: OrderedDictionary<String, JSONValue> = ["t": .double((t * 1000).rounded() / 1000), "type": .string(type)]
            object.merge(fields) { $1 }
            events.append((t, object))
        }
        func visibility(_ t: Double, _ card: String, _ from: String, _ to: String) {
            add(t, "visibility", ["card": .string(card), "from": .string(from), "to": .string(to)])
        }
        func fetch(_ t: Double, _ card: String, _ file: String, _ bytes: Int, hit: Bool, origin: String) {
            add(t, "fetch", ["url": .string("http://127.0.0.1:9/\(card)/\(file)"), "bytes": .int(bytes), "cacheHit": .bool(hit),
                             "origin": .string(origin), "card": .string(card)])
        }
        let dwell = seconds / Double(widgets)
        for index in 0..<widgets {
            let type = index % 7 == 3 ? "merch" : index % 4 == 1 ? "carousel" : "short"
            let widget = "\(type.prefix(1))\(index)"
            let start = Double(index) * dwell, leave = start + dwell * (0.6 + 0.4 * random.unit())
            for slot in 0..<(type == "carousel" ? 3 : 1) {
                let card = "\(widget)/\(slot)", near = max(0, start - dwell * 0.8), mount = max(near + 0.05, start - dwell * 0.3)
                let plays = type != "merch" && slot == 0
                visibility(near, card, "idle", "prefetch")
                fetch(near, card, "thumb.jpg", 30_000, hit: false, origin: "thumbnail")
                if prefetch { fetch(near + 0.2, card, "seg0.ts", 180_000, hit: false, origin: "prefetch") }
                visibility(mount, card, "prefetch", "mounted")
                add(mount, "mount", ["card": .string(card)])
                if plays {
                    let ttff = prefetch ? 8 + 30 * random.unit() : 150 + 300 * random.unit()
                    visibility(start, card, "mounted", "ready")
                    add(start, "playStart", ["card": .string(card), "widget": .string(widget), "widgetType": .string(type),
                                             "userIntent": .bool(index == 9)])
                    visibility(start + ttff / 1000, card, "ready", "active")
                    add(start + ttff / 1000, "firstFrame", ["card": .string(card), "ttffMs": .double(ttff), "phases": .object([:])])
                    var t = start + ttff / 1000, segment = 0
                    while t < leave {
                        fetch(t, card, "seg\(segment).ts", 200_000, hit: prefetch && segment == 0, origin: "playback")
                        segment += 1
                        t += 2
                    }
                    if index == 5 { add(start + dwell * 0.5, "stall", ["card": .string(card), "ms": .double(400)]) }
                    if index == 12 { add(start + dwell * 0.4, "error", ["card": .string(card), "message": .string("segment 3: HTTP 503 <&>")]) }
                    visibility(leave, card, "active", "softRelease")
                    add(leave + 0.3, "playStop", ["card": .string(card), "reason": .string("paused")])
                    visibility(leave + 0.3, card, "softRelease", "paused")
                }
                let end = (plays ? leave + 0.3 : leave) + dwell * 0.5
                visibility(end, card, plays ? "paused" : "mounted", "unmounted")
                add(end, "unmount", ["card": .string(card)])
            }
        }
        return events.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map { JSONWriter.compact(.object($0.element.1)) }.joined(separator: "\n") + "\n"
    }

    /// What `reel feed run --compare prefetch=off --json` prints, with made-up numbers.
    static func comparison() -> String {
        func summary(p50: Double, hits: Double, prefetched: Int) -> JSONValue {
            .object([
                "plays": .int(12), "ttffMs": .object(["p50": .double(p50), "p95": .double(p50 * 1.6), "max": .double(p50 * 1.8)]),
                "startedWithin50msRatio": .double(p50 < 50 ? 1 : 0), "stalls": .object(["count": .int(1), "totalMs": .double(400)]),
                "frames": .int(1500), "cdn": .object(["requests": .int(90), "bytes": .int(6_400_000)]), "bytesPlayed": .int(5_200_000),
                "cacheHitRatio": .double(hits),
                "prefetch": .object(["fetchedBytes": .int(prefetched), "usedBytes": .int(prefetched * 3 / 4), "wastedBytes": .int(prefetched / 4)]),
                "decoders": .object(["created": .int(3), "reused": .int(9)]), "peakRSSMB": .double(150.5), "errors": .int(1),
            ])
        }
        return JSONWriter.pretty(.object(["a": summary(p50: 21, hits: 0.3, prefetched: 4_000_000), "b": summary(p50: 290, hits: 0, prefetched: 0),
                                          "ratios": .object([:])]))
    }

    /// Writes the two runs and their comparison into `folder`; returns the `reel feed report` arguments.
    static func writeRuns(in folder: URL) throws -> [String] {
        let on = folder.appendingPathComponent("on.jsonl"), off = folder.appendingPathComponent("off.jsonl")
        let summary = folder.appendingPathComponent("compare.json")
        try Data(eventLines(widgets: 16, seconds: 40, prefetch: true).utf8).write(to: on)
        try Data(eventLines(widgets: 16, seconds: 40, prefetch: false).utf8).write(to: off)
        try Data(comparison().utf8).write(to: summary)
        return ["feed", "report", "--events", on.path, "--title", "prefetch on", "--events", off.path, "--title", "prefetch=off",
                "--summary", summary.path]
    }

    @Test func theReportRendersInHeadlessChromium() async throws {
        let folder = try makeScratchFolder("reel-report")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        let result = try await ReelProcess.run(try Self.writeRuns(in: folder) + ["--output", page.path])
        #expect(result.status == 0, "reel feed report failed: \(result.stderr)")
        #expect(result.stdout.contains("wrote \(page.path)"))

        let shot = try await ReportScreenshot.take(page, in: folder)
        print("report screenshot: \(shot.greyLevels) grey levels, \(Int(shot.inkedShare * 1000) / 10) % not white, marks \(shot.marks.sorted { $0.key < $1.key })")
        #expect(shot.greyLevels >= 64, "only \(shot.greyLevels) grey levels: the page looks blank")
        #expect(shot.inkedShare > 0.08, "only \(shot.inkedShare) of the pixels are not white")
        for (name, _) in ReportScreenshot.markColours {
            #expect(shot.marks[name, default: 0] >= 400, "the screenshot shows almost nothing of the colour of '\(name)'")
        }
    }

    @Test func anotherProcessWritesTheSameBytes() async throws {
        let folder = try makeScratchFolder("reel-report")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = try Self.writeRuns(in: folder)
        var pages: [Data] = []
        for name in ["first.html", "second.html"] {
            let output = folder.appendingPathComponent(name)
            let result = try await ReelProcess.run(arguments + ["--output", output.path, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"bytes\":"))
            pages.append(try Data(contentsOf: output))
        }
        #expect(pages[0] == pages[1])
        #expect(pages[0].count > 20_000)
    }

    @Test(arguments: [
        (["--events", "/no/such/events.jsonl"], "/no/such/events.jsonl", "not found"),
        (["--events", "BAD"], "line 2", "unknown event type"),
        (["--events", "GOOD", "--summary", "/no/such/summary.json"], "/no/such/summary.json", "not found"),
        (["--events", "GOOD", "--summary", "BAD"], "summary file", "not valid JSON"),
        (["--events", "GOOD", "--events", "GOOD", "--events", "GOOD"], "events files", "one or two"),
        (["--events", "GOOD", "--output", "UNDER-A-FILE"], "good.jsonl/report.html", "cannot write"),
    ])
    func badInputFailsWithOneLine(arguments: [String], names: String, cause: String) async throws {
        let folder = try makeScratchFolder("reel-report-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.jsonl"), bad = folder.appendingPathComponent("bad.jsonl")
        try Data(Self.eventLines(widgets: 2, seconds: 4, prefetch: true).utf8).write(to: good)
        try Data("{\"t\": 0, \"type\": \"mount\", \"card\": \"s0/0\"}\n{\"t\": 1, \"type\": \"teleport\"}\n".utf8).write(to: bad)
        // A report whose folder would be a file: refused before anything is read.
        var resolved = arguments.map { $0 == "GOOD" ? good.path : $0 == "BAD" ? bad.path : $0 == "UNDER-A-FILE" ? good.path + "/report.html" : $0 }
        if !resolved.contains("--output") { resolved += ["--output", folder.appendingPathComponent("out.html").path] }
        let result = try await ReelProcess.run(["feed", "report"] + resolved)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "expected one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("reel feed report: "))
        #expect(result.stderr.contains(names) && result.stderr.contains(cause), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.html").path))
    }
}

/// An outside program (chromium, ffmpeg): found on PATH, run with a deadline, its output kept.
enum Tool {
    static func find(_ name: String) -> URL? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in paths + ["/usr/bin", "/usr/local/bin"] {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `tool` in `folder` to its end (killed after `timeout` seconds); its stdout and stderr together.
    static func run(_ tool: URL, _ arguments: [String], in folder: URL, timeout: Int = 120) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(tool, arguments, directory: folder, timeout: .seconds(timeout))
        return (result.status, result.output)
    }
}
