import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelServer
import ReelSim
import Testing

/// The link scheduler's decisions performed by the feed simulation (virtual time): a segment of
/// the playing video that a collapsed link can no longer bring in time is stopped and fetched
/// afresh at the lowest variant; a cold session's first segments are planned on the
/// scheduler's own cautious guess.
@Suite("Feed simulation: the link scheduler's decisions")
struct SimulatedSchedulerTests {
    static let base = URL(string: "http://simulated.test/")!

    /// One short of eight 2-second segments at 400 and 2,400 kbit/s (100,000 and 600,000 bytes).
    static func feed() throws -> (FeedCatalog, SimMediaCatalog) {
        let path = "v0/index.m3u8"
        let url = base.appendingPathComponent(path).absoluteString
        let variants = [(name: "low", kbps: 400), (name: "high", kbps: 2_400)].map { rung in
            SimStream.Variant(name: "\(url)#\(rung.name)", bandwidth: rung.kbps * 1000, resolution: nil, playlistBytes: 500,
                              initBytes: 1_000, segmentBytes: Array(repeating: rung.kbps * 1000 / 8 * 2, count: 8),
                              segmentURLs: (0..<8).map { "\(url)#\(rung.name)/\($0)" })
        }
        let stream = SimStream(url: url, manifestBytes: 1_000, variants: variants, segmentDurations: Array(repeating: 2, count: 8),
                               switches: true)
        let entry = CatalogEntry(index: 0, url: path, aspectRatio: try #require(AspectRatio("9:16")))
        return (FeedCatalog(entries: [entry], source: "test"), SimMediaCatalog(streams: [url: stream]))
    }

    @Test("a collapsed link: the high-bitrate segment on its way is given up and fetched afresh at the lowest variant")
    func aLateSegmentIsGivenUp() throws {
        let (catalog, media) = try Self.feed()
        let config = try ConfigResolver().resolve([.assignments(["pagination.loopCatalog=false", "scheduler.policy=scheduler"])]).config
        // 20 Mbit/s for 5 s, then 300 kbit/s: a 600,000-byte segment then takes 16 s.
        let trace = try BandwidthTrace(name: "collapse", steps: [.init(start: 0, kbps: 20_000, latencyMilliseconds: 50),
                                                                   .init(start: 5, kbps: 300, latencyMilliseconds: 50)], end: .hold)
        let user = RetentionUser(videos: 1, seconds: 40) { _, _, _ in 16 }
        let simulation = FeedSimulation(config: config, catalog: catalog, baseURL: Self.base,
                                        models: SimModels(profile: NetworkProfile(trace: trace), media: media), user: user)
        let outcome = simulation.run()
        let switches = outcome.events.compactMap { event -> SessionEvent.VariantSwitch? in
            if case .variantSwitch(let change) = event.kind { change } else { nil }
        }
        #expect(simulation.givenUp >= 1, "switches \(switches)")
        // High while the link was fast, then low at the segment given up, and low after it.
        let down = try #require(switches.first { $0.to.hasSuffix("#low") }, "switches \(switches)")
        #expect(down.from.hasSuffix("#high") && down.segment > 0, "\(down)")
        #expect(!switches.contains { $0.segment > down.segment && $0.to.hasSuffix("#high") }, "switches \(switches)")
        // Waiting for the high segment alone would stall about 15 s.
        #expect(outcome.summary.stalls.totalMs < 10_000, "stalled \(outcome.summary.stalls.totalMs) ms, switches \(switches)")
    }

    @Test("a cold session: the scheduler plans its first segments on scheduler.startBandwidthKbps, not the meter's configured guess")
    func aColdStartPlansOnTheSchedulersOwnGuess() throws {
        let (catalog, media) = try Self.feed()
        // 1 Mbit/s throughout: the 2,400 kbit/s rung's first segment takes 4.8 s there.
        let trace = try BandwidthTrace(name: "steady", steps: [.init(start: 0, kbps: 1_000, latencyMilliseconds: 50)], end: .hold)
        func firstSegment(_ settings: [String]) throws -> (variant: String, stalledMs: Double) {
            let config = try ConfigResolver().resolve([.assignments(["pagination.loopCatalog=false", "scheduler.policy=scheduler"]
                                                                        + settings)]).config
            let user = RetentionUser(videos: 1, seconds: 20) { _, _, _ in 16 }
            let simulation = FeedSimulation(config: config, catalog: catalog, baseURL: Self.base,
                                            models: SimModels(profile: NetworkProfile(trace: trace), media: media), user: user)
            let outcome = simulation.run()
            let urls = outcome.events.compactMap { event -> String? in
                if case .fetch(let fetch) = event.kind, fetch.networkBytes > 0 { fetch.url } else { nil }
            }
            let first = try #require(urls.first { $0.hasSuffix("/0") }, "fetched \(urls)")
            return (String(first.split(separator: "#").last ?? ""), outcome.summary.stalls.totalMs)
        }
        // The meter's guess (device.bandwidthEstimateKbps, 8 Mbit/s by default) is no measurement:
        // the scheduler's cautious 1 Mbit/s starts at the lowest rung, and nothing stalls.
        let cold = try firstSegment([])
        #expect(cold.variant == "low/0", "\(cold)")
        #expect(cold.stalledMs == 0, "\(cold)")
        // Its own guess is what decides: a generous one starts high on the same link, and stalls.
        let generous = try firstSegment(["scheduler.startBandwidthKbps=20000"])
        #expect(generous.variant == "high/0", "\(generous)")
        #expect(generous.stalledMs > 1_000, "\(generous)")
    }
}
