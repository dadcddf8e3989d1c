import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia
import ReelServer
import ReelSim
import Testing

/// The simulated players and the retention-driven user on a feed made by hand, against what the
/// models say by hand: a start costs the manifest's request, the first frame's share of the
/// first segment and the decoder's open time; a user who watches three seconds of each video
/// swipes on after three seconds of content.
@Suite("Feed simulation: players and users")
struct FeedSimulationTests {
    static let base = URL(string: "http://simulated.test/")!

    /// `count` shorts of four 2-second segments of 200,000 bytes each (800 kbit/s) behind a
    /// 1,000-byte media playlist, no thumbnails.
    static func feed(count: Int) throws -> (FeedCatalog, SimMediaCatalog) {
        var entries: [CatalogEntry] = []
        var streams: [String: SimStream] = [:]
        for index in 0..<count {
            let path = "v\(index)/index.m3u8"
            entries.append(CatalogEntry(index: index, url: path, aspectRatio: try #require(AspectRatio("9:16"))))
            let url = base.appendingPathComponent(path).absoluteString
            let variant = SimStream.Variant(name: url, bandwidth: 800_000, resolution: nil, playlistBytes: 0, initBytes: 0,
                                            segmentBytes: Array(repeating: 200_000, count: 4),
                                            segmentURLs: (0..<4).map { "\(url)#\($0)" })
            streams[url] = SimStream(url: url, manifestBytes: 1_000, variants: [variant], segmentDurations: [2, 2, 2, 2], switches: false)
        }
        return (FeedCatalog(entries: entries, source: "test"), SimMediaCatalog(streams: streams))
    }

    static func config(_ settings: [String]) throws -> ReelConfig {
        try ConfigResolver().resolve([.assignments(["pagination.loopCatalog=false"] + settings)]).config
    }

    static let link = NetworkProfile(name: "test", latencyMilliseconds: 50, bandwidthKbps: 8_000)

    @Test("a cold start costs the manifest, the first frame's bytes and the decoder's open time")
    func coldStart() throws {
        // One video: nothing else shares the link.
        let (catalog, media) = try Self.feed(count: 1)
        let config = try Self.config(["prefetch.enabled=false"])
        let user = RetentionUser(videos: 1, seconds: 10) { _, _, _ in 3 }
        let timing = SimTiming()
        let outcome = FeedSimulation(config: config, catalog: catalog, baseURL: Self.base,
                                     models: SimModels(profile: Self.link, media: media, timing: timing), user: user).run()
        let first = try #require(outcome.events.compactMap { event -> SessionEvent.FirstFrame? in
            if case .firstFrame(let frame) = event.kind { frame } else { nil }
        }.first)
        // 50 ms + 1,000 B at 1 MB/s; then 50 ms + 15 % of 200,000 B; then the open time.
        let expected = (0.05 + 0.001) + (0.05 + 0.15 * 0.2) + timing.openAndDecodeMs / 1000
        #expect(abs(first.ttffMs - expected * 1000) < 0.5, "TTFF \(first.ttffMs) ms, by hand \(expected * 1000) ms")
        #expect(outcome.summary.simulated == true)
        #expect(outcome.summary.stalls.count == 0)
    }

    @Test("a demuxer reading a segment in blocks gets it a block at a time; the engine's, as it arrives")
    func demuxerBlocks() throws {
        var blocks = SimTiming()
        blocks.demuxerReadBytes = 32 << 10
        #expect(blocks.demuxed(40_000, of: 200_000) == 32_768)
        #expect(blocks.demuxed(20_000, of: 200_000) == 0)
        #expect(blocks.demuxed(200_000, of: 200_000) == 200_000)
        #expect(blocks.firstFrameBytes(of: 20_000) == 20_000)
        #expect(blocks.firstFrameBytes(of: 313_208) == 65_536)
        #expect(SimTiming().demuxed(40_000, of: 200_000) == 40_000)
        #expect(SimTiming().firstFrameBytes(of: 313_208) == 46_981)
        // The key frame's bytes are one frame, not 15 % of the segment's media.
        #expect(SimTiming().playableShare(30_000, of: 200_000) == 0)
        #expect(SimTiming().playableShare(115_000, of: 200_000) == 0.5)
        #expect(SimTiming().playableShare(200_000, of: 200_000) == 1)
        // A link a quarter faster than the video (1 Mbit/s): read as it arrives, the frames after
        // each key frame come faster than they play; read in 32 KiB blocks, the first frame's block
        // holds almost nothing more, and the playhead reaches its end before the next is whole.
        let (catalog, media) = try Self.feed(count: 1)
        let config = try Self.config(["prefetch.enabled=false"])
        let link = NetworkProfile(name: "test", latencyMilliseconds: 50, bandwidthKbps: 1_000)
        var stalls: [Int] = []
        for timing in [SimTiming(), blocks] {
            let user = RetentionUser(videos: 1, seconds: 10) { _, _, _ in 7.5 }
            let outcome = FeedSimulation(config: config, catalog: catalog, baseURL: Self.base,
                                         models: SimModels(profile: link, media: media, timing: timing), user: user).run()
            stalls.append(outcome.summary.stalls.count)
        }
        #expect(stalls[0] == 0)
        #expect(stalls[1] > 0)
    }

    @Test("on a link slower than its video, a short runs dry at its first frame, as the engine's players do")
    func aSlowLinkRunsDryAtTheFirstFrame() throws {
        // 400 kbit/s for an 800 kbit/s video: the first frame needs the key frame (15 % of the
        // segment); the frames after it come at half speed, so nothing more is there to play.
        let (catalog, media) = try Self.feed(count: 1)
        let config = try Self.config(["prefetch.enabled=false"])
        let link = NetworkProfile(name: "test", latencyMilliseconds: 50, bandwidthKbps: 400)
        let user = RetentionUser(videos: 1, seconds: 10) { _, _, _ in 7.5 }
        let outcome = FeedSimulation(config: config, catalog: catalog, baseURL: Self.base,
                                     models: SimModels(profile: link, media: media), user: user).run()
        let frame = try #require(outcome.events.first { if case .firstFrame = $0.kind { true } else { false } })
        let stall = try #require(outcome.events.lazy.compactMap { event -> (time: Double, ms: Double)? in
            if case .stall(let dry) = event.kind { (event.time, dry.ms) } else { nil }
        }.first)
        let ranDryAt = stall.time - stall.ms / 1000
        // Within the player's timers' grain (20 ms); counting the key frame as media, 0.6 s later.
        #expect(abs(ranDryAt - frame.time) <= 0.021, "first frame at \(frame.time) s, ran dry at \(ranDryAt) s")
    }

    @Test("a retention user watches each video for its seconds of content, then swipes to the next")
    func retentionUser() throws {
        let (catalog, media) = try Self.feed(count: 4)
        let config = try Self.config([])
        var asked: [Int] = []
        let user = RetentionUser(videos: 3, seconds: 60) { _, duration, index in
            asked.append(index)
            #expect(duration == 8)
            return [3, 1.5, 5][index]
        }
        let outcome = FeedSimulation(config: config, catalog: catalog, baseURL: Self.base,
                                     models: SimModels(profile: Self.link, media: media), user: user).run()
        #expect(asked == [0, 1, 2])
        // Each play's media time, from its player's report, is what the user chose to watch, and
        // what plays on while the user looks again (every 0.1 s) and swipes (0.3 s) away.
        let played = outcome.players.filter { $0.playedSeconds > 0 }.map(\.playedSeconds)
        #expect(played.count == 3, "\(played)")
        for (seconds, wanted) in zip(played, [3.0, 1.5, 5.0]) {
            #expect(seconds >= wanted - 1e-6 && seconds <= wanted + 0.45, "played \(played)")
        }
        let starts = outcome.events.compactMap { if case .playStart(let start) = $0.kind { start.card.rawValue } else { nil } }
        #expect(starts.count == 3 && Set(starts).count == 3, "\(starts)")
    }
}
