import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing
@testable import ReelMedia

/// A card's player switching variants over the CDN simulator while the network changes: the
/// test slows the link once the first segment is served, and once a lower variant's segment is
/// asked for it speeds the link up and holds that segment until the meter, fed by real transfers
/// on the same engine, measures the fast link (a starved test machine can make loopback slow for
/// seconds, and the rule rightly does not go up on a link it measures slow). Every wait is on a
/// real signal, never on time. Every frame must be the frame of the same index in the reference
/// of the variant its segment came from, across a switch down and a switch up, on one pooled
/// decoder.
@Suite("Adaptive playback")
struct ABRPlaybackTests {
    /// The rule made purely a throughput rule (no hold, no buffer thresholds).
    static let parameters = ABRParameters(safetyFactor: 0.75, switching: true, minBufferForUp: .zero,
                                          upHold: .zero, lowBuffer: .zero)

    static func options() -> PlayerOptions {
        var options = MediaTestSupport.options(mode: .fast)
        options.constraints.adaptive = parameters
        return options
    }

    @Test func framesMatchTheReferenceOfEachSegmentsVariantAcrossADownAndAnUpSwitch() async throws {
        let sample = try MediaTestSupport.sample("s03")
        var references: [String: [String]] = [:]
        for rendition in sample.renditions {
            references[rendition.id] = try SampleIndex.referenceHashes(rendition.reference)
            try #require(references[rendition.id]?.count == rendition.frames)
        }
        let top = try #require(sample.renditions.map(\.bandwidth).max())
        try await withSampleServer(profile: NetworkProfile(name: "16mbit", bandwidthKbps: 16_000)) { server in
            let meter = BandwidthMeter(initialBitsPerSecond: 20_000_000,
                                       parameters: .init(maxWeight: 2_000, minElapsed: .zero, minBytes: 0))
            let engine = TransferEngine(options: .patient, meter: meter)
            defer { BlockingPool.shared.start { engine.shutdown() } }
            let plain = URLDataSourceFactory(engine: engine, allowLocalFiles: false)
            // The first segment of a lower variant after the start waits at its open.
            let gate = SegmentGate { url in
                (url.path.contains("/s03/360p/") || url.path.contains("/s03/540p/")) && !url.path.hasSuffix("seg_000.ts")
            }
            let pool = DecoderPool(capacity: 1)
            let frames = FrameLog()
            let player = Player(card: "s0/0", input: server.url(for: sample.entry),
                                factory: GatedFactory(base: plain, gate: gate), pool: pool,
                                options: Self.options(), onFrameHash: frames.callback)
            var events = EventReader(player)
            player.play()

            // The first segment came fast; from now on the link gives 600 kbit/s.
            let served = await server.waitForBill { bill in
                bill.paths.contains { $0.key.hasPrefix("/streams/s03/") && $0.key.hasSuffix("/seg_000.ts") && $0.value.inFlightRequests == 0 }
            }
            try #require(served != nil, """
                no first segment was ever served; the bill: \(server.bill().paths.filter { $0.key.contains("/s03/") }
                    .map { "\($0.key): \($0.value.requests) requests, \($0.value.bodyBytes) B, \($0.value.inFlightRequests) in flight" }
                    .sorted()); the player: \(player.status)
                """)
            server.setProfile(NetworkProfile(name: "600kbit", bandwidthKbps: 600))
            let lower = await gate.held()
            try #require(lower != nil, "no lower variant was asked for after the link slowed")

            // The link is fast again; transfers on the player's engine measure it until the rule
            // would afford the top variant (bounded: a machine that never recovers fails here).
            server.setProfile(NetworkProfile(name: "20mbit", bandwidthKbps: 20_000))
            let probe = DataSpec(url: server.url(for: "streams/s03/720p/seg_001.ts"), kind: .segment)
            var probes = 0
            while Self.parameters.affordable(meter.bitsPerSecond, latency: meter.latency, segment: .seconds(2)) < top && probes < 100 {
                let before = meter.snapshot.samples
                _ = try await BlockingPool.shared.run { try plain.fetch(probe) }
                _ = await meter.changes.wait(limit: .seconds(10)) { meter.snapshot.samples > before }
                probes += 1
            }
            try #require(Self.parameters.affordable(meter.bitsPerSecond, latency: meter.latency, segment: .seconds(2)) >= top,
                         "the meter never measured the fast link: \(meter.snapshot) after \(probes) transfers")
            gate.open()

            let end = await events.next { $0.endsPlayback }
            let report = await player.stop()
            #expect(end?.isEnded == true, "\(report.error ?? "")")
            let abr = try #require(report.abr)
            print("segments: \(abr.segments.map { "\($0.index):\(Self.rendition($0.variant))" }.joined(separator: " ")); "
                  + "switches: \(abr.switches.map { "\($0.segment) \($0.reason)" }.joined(separator: ", ")); "
                  + "meter: \(meter.snapshot.estimateKbps) kbps, latency \(meter.snapshot.latencyMs) ms after \(probes) probes")
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

/// Holds the first open of a URL `matches` accepts until `open()`, and tells `held()` it came.
final class SegmentGate: Sendable {
    private let matches: @Sendable (URL) -> Bool
    private let state = Locked<(held: URL?, open: Bool, waiters: [CheckedContinuation<URL?, Never>])>((nil, false, []))
    private let condition = NSCondition()

    init(matches: @escaping @Sendable (URL) -> Bool) { self.matches = matches }

    /// Called by a source's open, on the demuxer's thread: blocks while the gate is shut.
    func arrive(_ url: URL, cancellation: Cancellation) {
        guard matches(url) else { return }
        let waiters = state.withLock { state -> [CheckedContinuation<URL?, Never>] in
            guard state.held == nil else { return [] }
            state.held = url
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: url) }
        // A stopped player cancels its reads: that opens the gate for this source too.
        let handler = cancellation.onCancel { [self] in wake() }
        defer { cancellation.removeHandler(handler) }
        condition.lock()
        while !state.withLock({ $0.open }) && !cancellation.isCancelled { condition.wait() }
        condition.unlock()
    }

    private func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// The URL held at the gate, once one is.
    func held() async -> URL? {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> URL?? in
                if let held = state.held { return .some(held) }
                state.waiters.append(continuation)
                return .none
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    func open() {
        state.withLock { $0.open = true }
        wake()
    }
}

/// Real data sources whose opens pass a `SegmentGate` first; the meter is the base's.
struct GatedFactory: DataSourceFactory {
    let base: URLDataSourceFactory
    let gate: SegmentGate
    var bandwidthMeter: BandwidthMeter? { base.bandwidthMeter }

    func makeDataSource(cancellation: Cancellation) -> any DataSource {
        GatedSource(base: base.makeDataSource(cancellation: cancellation), gate: gate, cancellation: cancellation)
    }
}

final class GatedSource: DataSource {
    let base: any DataSource
    let gate: SegmentGate
    let cancellation: Cancellation

    init(base: any DataSource, gate: SegmentGate, cancellation: Cancellation) {
        self.base = base
        self.gate = gate
        self.cancellation = cancellation
    }

    func open(_ spec: DataSpec) throws -> Int64? {
        gate.arrive(spec.url, cancellation: cancellation)
        return try base.open(spec)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try base.read(into: buffer) }
    func close() { base.close() }
    var metrics: TransferMetrics { base.metrics }
}
