import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelHarness
import ReelServer
import ReelTestSupport
import Testing

/// The feed session end to end, in real time: the bundled traces through the CDN simulator on
/// loopback, real HLS/DASH streams decoded by FFmpeg, the disk cache, the decoder pool and the
/// play arbiter. Every session's events must keep the play rules (the checker behind
/// `reel feed check-events`), survive a round trip through the events file, and its summary's
/// CDN figures must be the simulator's own bill.
@Suite("Feed session")
struct FeedSessionTests {
    /// A run of one trace against a fresh simulator (4g), with its bill read by the test itself.
    struct Run {
        var result: FeedRunResult
        var bill: CDNBill
        var config: ReelConfig
    }

    /// One session on the simulator. Wifi by default: these tests check the session's logic,
    /// and a faster link keeps a loaded test machine's timing out of it (sweeps measure 4g and 3g);
    /// so does the patient low-speed window (a starved machine must not cut a healthy transfer).
    /// `.simulate` runs the same coordinator in virtual time on models of the link, players and
    /// cache (no server, no wall clock; `bill` is then empty).
    static func run(trace: ScrollTrace, settings: [String] = [], profile: NetworkProfile = .wifi,
                    launchSeconds: Double = 0, catalog given: FeedCatalog? = nil, engine: FeedRunEngine = .real) async throws -> Run {
        let catalog = try given ?? FeedCatalog.load(path: PackagePaths.samples.appendingPathComponent("video-feed.json").path)
        let patient = "network.lowSpeedTimeMs=\(PatientNetwork.lowSpeedTimeMs)"
        if engine == .simulate {
            let origin = try FeedOrigin.serve(path: PackagePaths.samples.path, profile: profile)
            let config = try ConfigResolver().resolve(origin.defaultLayers + [.assignments([patient] + settings)]).config
            var request = FeedRunRequest(catalog: catalog, trace: trace, origin: origin, launchSeconds: launchSeconds)
            request.engine = .simulate
            let result = try await FeedRun.run(request, config: config, title: "test")
            return Run(result: result, bill: CDNBill(), config: config)
        }
        return try await withSampleServer(profile: profile) { server in
            let origin = FeedOrigin.simulator(server)
            let config = try ConfigResolver().resolve(origin.defaultLayers + [.assignments([patient] + settings)]).config
            let request = FeedRunRequest(catalog: catalog, trace: trace, origin: origin, launchSeconds: launchSeconds)
            let result = try await FeedRun.run(request, config: config, title: "test")
            return Run(result: result, bill: server.bill(), config: config)
        }
    }

    static func bundled(_ name: String) throws -> ScrollTrace {
        try ScrollTrace.load(path: PackagePaths.samples.appendingPathComponent("traces/\(name).jsonl").path)
    }

    /// The play rules over a session's events, with the configuration's limits.
    static func violations(_ events: [SessionEvent], config: ReelConfig) -> [PlayRuleViolation] {
        var limits: [WidgetType: Int] = [:]
        for type in WidgetType.allCases { limits[type] = config.playback.maxSimultaneous(for: type) }
        return PlayRulesChecker.check(events.compactMap(\.playFact), maxSimultaneous: limits, isLowEnd: config.device.isLowEnd)
    }

    /// Every bundled trace on both devices in the simulation (the coordinator's rules in virtual
    /// time), and the mixed one through the real engine (real players, cache and prefetch), with
    /// today's download decisions and with the link scheduler giving the players' segments their
    /// turns (`LinkDesk`).
    static let bundledCases: [(name: String, lowEnd: Bool, engine: FeedRunEngine, policy: String)] =
        ["browse", "fling", "carousel", "mixed"].flatMap { name in [false, true].map { (name, $0, FeedRunEngine.simulate, "today") } }
        + [("mixed", false, .real, "today"), ("mixed", false, .real, "scheduler")]

    @Test("every bundled trace keeps the play rules, on a normal and on a low-end device", arguments: bundledCases)
    func bundledTraces(name: String, lowEnd: Bool, engine: FeedRunEngine, policy: String) async throws {
        let run = try await Self.run(trace: try Self.bundled(name), settings: ["device.isLowEnd=\(lowEnd)", "scheduler.policy=\(policy)"],
                                     engine: engine)
        let events = run.result.events, summary = run.result.summary
        let violations = Self.violations(events, config: run.config)
        #expect(violations.isEmpty, "\(name) low-end \(lowEnd): \(violations.map(\.description))")
        let facts = events.compactMap(\.playFact)
        print("""
            feed session \(name)\(lowEnd ? " low-end" : "") (\(engine.rawValue), \(policy)): \(events.count) events, \(facts.count) play facts, \
            \(summary.plays) plays, TTFF p50 \(summary.ttffMs.p50 ?? .nan) ms p95 \(summary.ttffMs.p95 ?? .nan) ms, \
            within 50 ms \(summary.startedWithin50msRatio ?? .nan), CDN \(summary.cdn.requests) requests \(summary.cdn.bytes) B, \
            played \(summary.bytesPlayed) B, errors \(summary.errors)
            """)
        #expect(summary.errors == 0, "errors: \(events.filter { if case .error = $0.kind { true } else { false } }.map(\.json))")
        // Every unmounted card's player let its demuxer's thread go while the session still ran.
        let mounts = events.filter { if case .mount = $0.kind { true } else { false } }.count
        if engine == .real {
            #expect(summary.threads?.playersLeft == 0, "\(mounts) mounts left \(summary.threads?.playersLeft ?? -1) player threads")
        } else {
            #expect(summary.simulated == true)
        }
        #expect(events.contains { if case .visibility = $0.kind { true } else { false } })
        #expect(events.contains { if case .fetch(let fetch) = $0.kind { fetch.origin == .thumbnail } else { false } })
        if name == "fling" {
            // The fling passes the merch card: its image comes from the served folder.
            #expect(events.contains {
                guard case .fetch(let fetch) = $0.kind, fetch.origin == .thumbnail, fetch.card == "m0/0" else { return false }
                return fetch.url.contains("/images/merch/m1.jpg") && fetch.bytes > 0
            })
        }
        let starts = facts.filter { if case .playStart = $0.kind { true } else { false } }
        if lowEnd {
            // Nothing autoplays: only the trace's taps start videos, one player at a time.
            #expect(starts.allSatisfy { if case .playStart(_, _, true) = $0.kind { true } else { false } })
        } else {
            #expect(summary.plays > 0 && summary.frames > 0 && summary.bytesPlayed > 0, "\(summary.json)")
        }
        // Every play reached its first frame, and each first frame follows its play's start.
        var started: [CardID: Double] = [:]
        var firstFrames = 0
        for event in events {
            if case .playStart(let play) = event.kind { started[play.card] = event.time }
            if case .firstFrame(let frame) = event.kind {
                firstFrames += 1
                let start = try #require(started[frame.card], "a first frame of \(frame.card) without a play")
                #expect(event.time >= start && frame.ttffMs >= 0)
            }
        }
        #expect(firstFrames <= summary.plays)
    }

    @Test("the summary's CDN figures are the simulator's bill, and the events file round-trips")
    func billAndEventsFile() async throws {
        let build = try Self.build()
        let trace = TraceGenerator.generate(.mixed, seconds: 15, build: build, seed: 5)
        let run = try await Self.run(trace: trace)
        let summary = run.result.summary
        #expect(run.bill.requests > 0)
        #expect(summary.cdn.requests == run.bill.requests)
        #expect(summary.cdn.bytes == Int64(run.bill.bodyBytes))
        // What the session read from the network cannot exceed what the CDN sent, path by path
        // (bytes a reader got from the cache are not the network's). Two readers may each read
        // part of one request: a play that takes over a prefetch's transfer reads what the
        // prefetch left from the cache and the rest from the network, so reads can outnumber
        // requests, never outweigh them.
        var networkBytes: Int64 = 0
        var readByPath: [String: Int64] = [:]
        for event in run.result.events {
            if case .fetch(let fetch) = event.kind, fetch.networkBytes > 0 {
                networkBytes += fetch.networkBytes
                readByPath[URL(string: fetch.url)?.path ?? fetch.url, default: 0] += fetch.networkBytes
            }
        }
        #expect(networkBytes > 0 && networkBytes <= summary.cdn.bytes, "read \(networkBytes) of \(summary.cdn.bytes) billed")
        let overread = readByPath.filter { $0.value > Int64(run.bill.paths[$0.key]?.bodyBytes ?? 0) }
        #expect(overread.isEmpty, "read more than billed: \(overread.map { "\($0.key) \($0.value) of \(run.bill.paths[$0.key]?.bodyBytes ?? 0) B" })")
        #expect(Self.violations(run.result.events, config: run.config).isEmpty)

        let folder = try makeScratchFolder("reel-session-events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("events.jsonl").path
        let written = try await FeedRunFiles.write([run.result], events: path, report: nil)
        #expect(written == [path])
        let loaded = try SessionEvent.load(path: path)
        let expected = run.result.events.map { event -> SessionEvent in
            var rounded = event
            rounded.time = (event.time * 1e6).rounded() / 1e6
            return rounded
        }
        #expect(loaded == expected)
        #expect(SessionSummary(events: loaded).plays == summary.plays)
    }

    /// On a low-end device a tap is what plays, so the card on screen is prefetched and the cards
    /// ahead are not; the tap's player reads what the prefetch fetched (one request serves both).
    @Test("a low-end device prefetches the card on screen, not the ones ahead")
    func lowEndPrefetchesTheCardOnScreen() async throws {
        // Still on the first short, tapped once; the session goes on long enough for a machine
        // busy with the whole suite to open the player (7.5 s was once too short).
        let trace = ScrollTrace(samples: [ScrollSample(time: 0, y: 0), ScrollSample(time: 2.5, y: 0, tap: "s0/0"),
                                          ScrollSample(time: 20, y: 0)])
        let run = try await Self.run(trace: trace, settings: ["device.isLowEnd=true"])
        var queued: [String] = []
        var shown = false
        for event in run.result.events {
            if case .prefetchQueued(let request) = event.kind, let card = request.card { queued.append(card.rawValue) }
            if case .firstFrame(let frame) = event.kind, frame.card == "s0/0" { shown = true }
        }
        #expect(queued == ["s0/0"], "prefetched \(queued)")
        #expect(run.result.summary.plays == 1)
        #expect(shown, "the tapped card showed no first frame")
        // The card is the catalog's first video, s01 (a player's fetch event comes when it closes
        // the segment, which a busy machine may not reach before the session ends: the bill is
        // the record).
        let path = "/streams/s01/seg_000.ts"
        // One request serves both, or two when a busy machine let prefetch's transfer be cut
        // before the tap and the play resumed its partial entry with a Range request.
        #expect((1...2).contains(run.bill.paths[path]?.requests ?? 0), "\(path) was fetched \(run.bill.paths[path]?.requests ?? 0) times")
    }

    /// One unreachable host is not the network: with every thumbnail on a host that refuses
    /// connections, the thumbnails fail and nothing else does (the players' host stays online).
    @Test("a dead thumbnail host costs only its thumbnails")
    func deadThumbnailHost() async throws {
        let build = try Self.build()
        let trace = TraceGenerator.generate(.browse, seconds: 12, build: build, seed: 2)
        let samples = try FeedCatalog.load(path: PackagePaths.samples.appendingPathComponent("video-feed.json").path)
        let catalog = FeedCatalog(entries: samples.entries.map {
            CatalogEntry(index: $0.index, url: $0.url, sourceType: $0.sourceType, aspectRatio: $0.aspectRatio,
                         thumbnailTemplate: "http://127.0.0.1:1/thumbs/\($0.videoID).jpg?w={@width}&h={@height}")
        }, source: "dead thumbnails")
        let run = try await Self.run(trace: trace, catalog: catalog)
        let summary = run.result.summary
        var thumbnailErrors = 0
        var otherErrors: [String] = []
        for event in run.result.events {
            guard case .error(let failure) = event.kind else { continue }
            if failure.message.hasPrefix("thumbnail 'http://127.0.0.1:1/") { thumbnailErrors += 1 } else { otherErrors.append(failure.message) }
        }
        print("dead thumbnail host: \(summary.plays) plays, \(summary.frames) frames, \(thumbnailErrors) thumbnail errors, other errors \(otherErrors.count)")
        #expect(thumbnailErrors > 0, "no thumbnail was asked for")
        #expect(otherErrors.isEmpty, "\(otherErrors.prefix(5))")
        #expect(summary.plays > 0 && summary.frames > 0, "\(summary.json)")
        #expect(Self.violations(run.result.events, config: run.config).isEmpty)
    }

    static func build() throws -> FeedBuild {
        let config = try ConfigResolver().resolve([]).config
        let catalog = try FeedCatalog.load(path: PackagePaths.samples.appendingPathComponent("video-feed.json").path)
        return FeedBuild(api: FeedAPI(catalog: catalog, config: config), config: config)
    }
}
