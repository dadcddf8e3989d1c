@testable import ReelNet
import ReelCore
import Testing

/// The bandwidth meter's pure parts, driven on a manual clock: the sliding percentile, the
/// estimator's warm-up and window, and the sampler that turns concurrent transfers into samples.
@Suite("Bandwidth meter")
struct BandwidthMeterTests {
    @Test func slidingPercentileKeepsTheNewestWeight() {
        var window = SlidingPercentile(maxWeight: 10)
        window.add(weight: 5, value: 100)
        window.add(weight: 5, value: 200)
        #expect(window.value(at: 0.5) == 100)
        // The oldest leaves once the window passes its weight; the next oldest shrinks.
        window.add(weight: 8, value: 300)
        #expect(window.count == 2)
        #expect(window.value(at: 0.1) == 200)
        #expect(window.value(at: 0.5) == 300)
        #expect(SlidingPercentile(maxWeight: 10).value(at: 0.5) == nil)
    }

    @Test func theInitialEstimateHoldsUntilEnoughIsMeasured() {
        var estimator = BandwidthEstimator(initialBitsPerSecond: 8_000_000,
                                           parameters: .init(minElapsed: .seconds(2), minBytes: 512 * 1024))
        // 100 KB in 400 ms: 2 Mbit/s, but only 0.4 s and 100 KB measured.
        estimator.add(bytes: 100_000, elapsed: .milliseconds(400))
        #expect(!estimator.isMeasured)
        #expect(estimator.bitsPerSecond == 8_000_000)
        for _ in 0..<4 { estimator.add(bytes: 100_000, elapsed: .milliseconds(400)) }
        #expect(estimator.isMeasured)
        #expect(estimator.bitsPerSecond == 2_000_000)
        #expect(estimator.samples == 5)
    }

    @Test func aConfiguredGuessIsNoMeasurementButARememberedEstimateIs() {
        var config = ReelConfig()
        config.abr.meter.minElapsedMs = 2000
        // The configured guess (device.bandwidthEstimateKbps): the link scheduler plans without it.
        let guessing = BandwidthMeter(config: config)
        #expect(guessing.bitsPerSecond == 8_000_000)
        #expect(guessing.measuredBitsPerSecond == nil)
        // 1 MB over 4 s: measured, at 2 Mbit/s.
        guessing.add(bytes: 1_000_000, elapsed: .seconds(4))
        #expect(guessing.measuredBitsPerSecond == 2_000_000)
        // Remembered for the network by an earlier session: a measurement from the start.
        #expect(BandwidthMeter(config: config, initialKbps: 1500).measuredBitsPerSecond == 1_500_000)
    }

    @Test func theMedianFollowsADropOnceTheNewSamplesOutweighTheOld() {
        var estimator = BandwidthEstimator(initialBitsPerSecond: 1_000_000, parameters: .init(maxWeight: 2000, minElapsed: .zero))
        // 200 KB segments (weight 447 each) at 8 Mbit/s fill the window.
        for _ in 0..<6 { estimator.add(bytes: 200_000, elapsed: .milliseconds(200)) }
        #expect(estimator.bitsPerSecond == 8_000_000)
        // At 1.5 Mbit/s: two samples are not yet half the window, three are.
        estimator.add(bytes: 200_000, elapsed: .microseconds(1_066_667))
        estimator.add(bytes: 200_000, elapsed: .microseconds(1_066_667))
        #expect(estimator.bitsPerSecond == 8_000_000)
        estimator.add(bytes: 200_000, elapsed: .microseconds(1_066_667))
        #expect(abs(estimator.bitsPerSecond - 1_500_000) < 1_000)
    }

    @Test func samplesCoverTheTimeAnyTransferIsUnderWay() {
        let clock = ManualClock()
        var sampler = ThroughputSampler()
        // Two transfers overlap on one link: A from 0 to 1 s, B from 0.5 s to 1.5 s.
        sampler.began(at: clock.now.offset)
        clock.advance(by: .milliseconds(500))
        sampler.received(50_000)
        sampler.began(at: clock.now.offset)
        clock.advance(by: .milliseconds(500))
        sampler.received(50_000)
        let first = sampler.ended(at: clock.now.offset)
        #expect(first?.bytes == 100_000)
        #expect(first?.elapsed == .seconds(1))
        clock.advance(by: .milliseconds(500))
        sampler.received(50_000)
        let second = sampler.ended(at: clock.now.offset)
        #expect(second?.bytes == 50_000)
        #expect(second?.elapsed == .milliseconds(500))
        // Nothing under way: idle time is no part of the next sample.
        clock.advance(by: .seconds(10))
        sampler.began(at: clock.now.offset)
        clock.advance(by: .milliseconds(100))
        sampler.received(10_000)
        #expect(sampler.ended(at: clock.now.offset)?.elapsed == .milliseconds(100))
        #expect(sampler.ended(at: clock.now.offset) == nil)
        // A body noticed late began at its first byte, but never before the last sample closed.
        clock.advance(by: .milliseconds(300))
        sampler.began(at: clock.now.offset - .seconds(1))
        sampler.received(10_000)
        #expect(sampler.ended(at: clock.now.offset)?.elapsed == .milliseconds(300))
    }

    /// Latency is estimated apart from bandwidth: the median of the newest eight requests.
    @Test func latencyIsTheMedianOfTheNewestRequests() {
        var estimator = BandwidthEstimator(initialBitsPerSecond: 1_000_000)
        #expect(estimator.latency == .zero)
        estimator.addLatency(.milliseconds(50))
        #expect(estimator.latency == .milliseconds(50))
        estimator.addLatency(.milliseconds(70))
        #expect(estimator.latency == .milliseconds(60))
        estimator.addLatency(.milliseconds(900))  // one slow answer moves the median little
        #expect(estimator.latency == .milliseconds(70))
        // The network changes: eight answers at 200 ms and the old ones are gone.
        for _ in 0..<8 { estimator.addLatency(.milliseconds(200)) }
        #expect(estimator.latency == .milliseconds(200))
        // Latency never moves the bandwidth estimate.
        #expect(estimator.bitsPerSecond == 1_000_000)
    }

    @Test func theMeterReportsInKilobits() {
        let meter = BandwidthMeter(initialBitsPerSecond: 3_000_000, parameters: .init(minElapsed: .zero))
        #expect(meter.snapshot == BandwidthEstimate(estimateKbps: 3000, samples: 0, measured: false, initialKbps: 3000))
        meter.add(bytes: 125_000, elapsed: .seconds(1))
        #expect(meter.snapshot == BandwidthEstimate(estimateKbps: 1000, samples: 1, measured: true, initialKbps: 3000))
    }

    @Test func theMeterCountsTheJoinedPlaysThatPlay() {
        final class Play: Sendable {
            let playing: Locked<Bool>
            init(_ playing: Bool) { self.playing = Locked(playing) }
        }
        let meter = BandwidthMeter(initialBitsPerSecond: 3_000_000)
        let (a, b, c) = (Play(true), Play(true), Play(false))
        for play in [a, b, c] { meter.join(play) { play.playing.withLock { $0 } } }
        #expect(meter.playing == 2)
        c.playing.withLock { $0 = true }
        #expect(meter.playing == 3)
        meter.leave(a)
        meter.leave(a)
        #expect(meter.playing == 2)
    }

    @Test func theConfigurationSetsTheStartAndTheWindow() throws {
        var config = ReelConfig()
        config.device.bandwidthEstimateKbps = 4000
        #expect(BandwidthMeter(config: config).bitsPerSecond == 4_000_000)
        #expect(BandwidthMeter(config: config, initialKbps: 1200).bitsPerSecond == 1_200_000)
    }
}
