import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// The meter fed by real transfers over the CDN simulator: segments and media measure the
/// network, playlists do not, cache hits never reach it; the estimate is remembered in the
/// cache's index across opens.
@Suite("Bandwidth meter over the network")
struct BandwidthMeterTransferTests {
    static let files = ["seg.ts": CacheHarness.bytes(150_000), "index.m3u8": CacheHarness.bytes(2_000, seed: 2)]

    @Test func segmentsFeedTheMeterAndPlaylistsAndCacheHitsDoNot() async throws {
        try await CacheHarness.with(Self.files, profile: NetworkProfile(name: "2mbit", bandwidthKbps: 2_000)) { harness in
            let cache = try await harness.openCache()
            defer { cache.close() }
            let factory = harness.factory(cache)
            let meter = try #require(factory.bandwidthMeter)
            #expect(meter === harness.engine.meter)

            _ = try await CacheHarness.read(factory, DataSpec(url: harness.url("index.m3u8"), kind: .playlist))
            #expect(meter.snapshot.samples == 0)

            let (bytes, metrics) = try await CacheHarness.read(factory, DataSpec(url: harness.url("seg.ts"), kind: .segment))
            #expect(bytes.count == 150_000)
            #expect(!metrics.cacheHit)
            // The transfer engine adds the sample when the transfer ends, on its own thread.
            #expect(await meter.changes.wait(limit: .seconds(10)) { meter.snapshot.samples == 1 })
            let measured = meter.snapshot
            print("150 KB over a 2,000 kbps link: estimate \(measured.estimateKbps) kbps, measured: \(measured.measured) (the initial \(measured.initialKbps) kbps holds until 2 s or 512 KB are measured)")

            let (again, hit) = try await CacheHarness.read(factory, DataSpec(url: harness.url("seg.ts"), kind: .segment))
            #expect(again == bytes)
            #expect(hit.cacheHit)
            #expect(meter.snapshot.samples == 1)
            #expect(harness.server.bill().requests == 2)
        }
    }

    @Test func theMeterNeverMeasuresMoreThanTheLinkCarries() async throws {
        try await CacheHarness.with(Self.files, profile: NetworkProfile(name: "2mbit", latencyMilliseconds: 1_000, bandwidthKbps: 2_000)) { harness in
            let meter = BandwidthMeter(initialBitsPerSecond: 50_000_000, parameters: .init(minElapsed: .zero, minBytes: 0))
            let engine = TransferEngine(options: NetworkOptions(), meter: meter)
            defer { BlockingPool.shared.start { engine.shutdown() } }
            let network = URLDataSourceFactory(engine: engine, allowLocalFiles: false)
            let clock = ContinuousClock()
            let began = clock.now
            _ = try await CacheHarness.read(network, DataSpec(url: harness.url("seg.ts"), kind: .segment))
            #expect(await meter.changes.wait(limit: .seconds(10)) { meter.snapshot.samples == 1 })
            let read = began.duration(to: clock.now)  // the request leaving to the sample closed, at most
            // Bytes cannot arrive faster than the link sends them: the estimate is at most 2,000
            // kbps (and not the initial 50,000).
            #expect(meter.snapshot.measured)
            #expect(meter.snapshot.estimateKbps <= 2_000)
            // The second before the response's first byte (the simulator waits that long before
            // each response head) is the latency, measured apart and no part of the sample: the
            // sample's time is at most the whole read's less that second, however slow a loaded
            // machine makes the body. libcurl times on CLOCK_MONOTONIC_RAW, the simulator's timer
            // on CLOCK_MONOTONIC, which NTP slews by up to 500 ppm: the latency may read 0.5 ms
            // short of the second (it read 0.999991 s once).
            #expect(meter.latency >= .milliseconds(999.5))
            #expect(meter.measuredTime <= read - .seconds(1), "sample \(meter.measuredTime), read \(read)")
        }
    }

    @Test func theEstimateIsRememberedPerNetworkAcrossOpens() async throws {
        try await CacheHarness.with([:]) { harness in
            let first = try await harness.openCache()
            #expect(first.rememberedEstimate(network: "4g") == nil)
            first.rememberEstimate(3_100, network: "4g")
            first.rememberEstimate(900, network: "3g")
            first.close()
            let second = try await harness.openCache()
            defer { second.close() }
            #expect(second.rememberedEstimate(network: "4g") == 3_100)
            #expect(second.rememberedEstimate(network: "3g") == 900)
            #expect(second.rememberedEstimate(network: "wifi") == nil)
        }
    }
}
