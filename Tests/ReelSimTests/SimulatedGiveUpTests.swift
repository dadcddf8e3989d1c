import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelServer
import ReelSim
import Testing

/// The link scheduler's give-ups performed by the feed simulation (virtual time): a segment of
/// the playing video that a collapsed link can no longer bring in time is stopped and fetched
/// afresh at the lowest variant.
@Suite("Feed simulation: giving up a late segment")
struct SimulatedGiveUpTests {
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
}
