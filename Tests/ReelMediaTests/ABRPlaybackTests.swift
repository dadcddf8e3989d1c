import Foundation
import ReelCore
import ReelNet
import ReelServer
import ReelTestSupport
import Testing
@testable import ReelMedia

/// A card's player switching variants over the CDN simulator while the network changes: the
/// test slows the link once the first segment is served and speeds it up again once a
/// lower variant's segment is asked for (waiting on the simulator's bill, never on time). Every
/// frame must be the frame of the same index in the reference of the variant its segment came
/// from, across a switch down and a switch up, on one pooled decoder.
@Suite("Adaptive playback")
struct ABRPlaybackTests {
    /// The rule made purely a throughput rule (no hold, no buffer thresholds) and the meter's
    /// window about one segment wide, so the switches follow the link the test sets.
    static func options() -> PlayerOptions {
        var options = MediaTestSupport.options(mode: .fast)
        options.constraints.adaptive = ABRParameters(safetyFactor: 0.75, switching: true, minBufferForUp: .zero,
                                                     upHold: .zero, lowBuffer: .zero)
        return options
    }

    @Test func framesMatchTheReferenceOfEachSegmentsVariantAcrossADownAndAnUpSwitch() async throws {
        let sample = try MediaTestSupport.sample("s03")
        var references: [String: [String]] = [:]
        for rendition in sample.renditions {
            references[rendition.id] = try SampleIndex.referenceHashes(rendition.reference)
            try #require(references[rendition.id]?.count == rendition.frames)
        }
        try await withSampleServer(profile: NetworkProfile(name: "16mbit", bandwidthKbps: 16_000)) { server in
            let meter = BandwidthMeter(initialBitsPerSecond: 20_000_000,
                                       parameters: .init(maxWeight: 300, minElapsed: .zero, minBytes: 0))
            let engine = TransferEngine(options: NetworkOptions(), meter: meter)
            defer { BlockingPool.shared.start { engine.shutdown() } }
            let pool = DecoderPool(capacity: 1)
            let frames = FrameLog()
            let player = Player(card: "s0/0", input: server.url(for: sample.entry),
                                factory: URLDataSourceFactory(engine: engine, allowLocalFiles: false), pool: pool,
                                options: Self.options(), onFrameHash: frames.callback)
            var events = EventReader(player)
            player.play()

            // The first segment came fast; from now on the link gives 600 kbit/s (early, so that
            // a loaded machine still leaves segments for the switch up after the switch down).
            let served = await server.waitForBill { bill in
                bill.paths.contains { $0.key.hasPrefix("/streams/s03/") && $0.key.hasSuffix("/seg_000.ts") && $0.value.inFlightRequests == 0 }
            }
            try #require(served != nil, """
                no first segment was ever served; the bill: \(server.bill().paths.filter { $0.key.contains("/s03/") }
                    .map { "\($0.key): \($0.value.requests) requests, \($0.value.bodyBytes) B, \($0.value.inFlightRequests) in flight" }
                    .sorted()); the player: \(player.status)
                """)
            server.setProfile(NetworkProfile(name: "600kbit", bandwidthKbps: 600))
            let lower = await server.waitForBill { bill in
                bill.paths.keys.contains { path in
                    (path.hasPrefix("/streams/s03/360p/seg_") || path.hasPrefix("/streams/s03/540p/seg_"))
                        && !path.hasSuffix("seg_000.ts")
                }
            }
            try #require(lower != nil, "no lower variant was asked for after the link slowed")
            server.setProfile(NetworkProfile(name: "20mbit", bandwidthKbps: 20_000))

            let end = await events.next { $0.endsPlayback }
            let report = await player.stop()
            #expect(end?.isEnded == true, "\(report.error ?? "")")
            let abr = try #require(report.abr)
            print("segments: \(abr.segments.map { "\($0.index):\(Self.rendition($0.variant))" }.joined(separator: " ")); "
                  + "switches: \(abr.switches.map { "\($0.segment) \($0.reason)" }.joined(separator: ", "))")
            #expect(abr.adaptive)
            #expect(abr.switches.contains { !$0.isUp }, "no switch down")
            #expect(abr.switches.contains { $0.isUp }, "no switch up")
            let variants = Dictionary(abr.segments.map { ($0.index, Self.rendition($0.variant)) }) { first, _ in first }
            try #require(variants.count == 6)

            // Every frame is its variant's reference frame of the same index (60 frames a segment).
            let hashes = frames.all
            #expect(hashes.count == 360)
            var mismatches: [String] = []
            for (index, hash) in hashes.enumerated() {
                let variant = try #require(variants[index / 60])
                if references[variant]?[index] != hash { mismatches.append("frame \(index) (\(variant))") }
            }
            #expect(mismatches.isEmpty, "frames differing from their variant's reference: \(mismatches.prefix(10))")
            // One decoder went through the picture size changes.
            let statistics = await pool.statistics
            #expect(statistics.created == 1 && statistics.reconfigured == 0)
        }
    }

    /// "360p" of ".../s03/360p/index.m3u8".
    static func rendition(_ variant: String) -> String {
        let parts = variant.split(separator: "/")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : variant
    }
}
