import Benchmark
import Foundation
import ReelCore
import ReelFeed

/// The link scheduler's cost per decision with 50 candidate cards (the playing one and 49
/// ahead, 30 segments at three variants each, retention curves, the early-start charge weighed
/// for every start): goal p99 under 100 us.
func schedulerBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let bitrates = [750_000, 1_200_000, 1_850_000]
    var random = SeededRandom(seed: 7)
    func video(_ index: Int) -> VideoState {
        let segments = 30
        var share = 1.0
        let retention = [1.0] + (1...segments).map { _ in
            share *= 0.85 + 0.14 * random.unit()
            return share
        }
        let sizes = bitrates.map { rate in (0..<segments).map { _ in Int(Double(rate / 8) * (0.6 + 0.8 * random.unit())) } }
        return VideoState(id: "c\(index)", distance: index, isPlaying: index == 0, playhead: 0, downloaded: 0, downloadedVariants: [],
                          segmentDurations: Array(repeating: 1, count: segments), bitrates: bitrates, sizes: sizes,
                          retention: retention, reachProbability: index == 0 ? 1 : pow(0.85, Double(index - 1)))
    }
    let cards = (0..<50).map(video)
    var parameters = LinkScheduler.Parameters(ReelConfig())
    parameters.chargesEarlyStart = true

    /// States along a session, made before the clock runs: the playing card's playhead and
    /// buffer move, starts fill in.
    var states: [LinkState] = []
    var moving = cards
    for position in 0..<1000 {
        moving[0].playhead = Double(position % 25)
        moving[0].downloaded = min(30, position % 25 + 1 + position % 3)
        moving[0].downloadedVariants = Array(repeating: position % 3, count: moving[0].downloaded)
        for index in 1..<moving.count {
            moving[index].downloaded = index < position % 50 ? 1 : 0
            moving[index].downloadedVariants = Array(repeating: 1, count: moving[index].downloaded)
        }
        states.append(LinkState(now: Double(position) * 0.05, bandwidthBitsPerSecond: 3_000_000, latency: 0.08, videos: moving))
    }

    final class Decider {
        var scheduler: LinkScheduler
        let states: [LinkState]
        var step = 0

        init(_ scheduler: LinkScheduler, _ states: [LinkState]) {
            self.scheduler = scheduler
            self.states = states
        }

        func next() -> DownloadDecision {
            step += 1
            if step % 7 == 0 { scheduler.downloaded(SegmentRequest(video: "c0", segment: 0, variant: 1), bytes: 150_000, seconds: 0.5) }
            return scheduler.decide(states[step % states.count])
        }
    }
    let decider = Decider(LinkScheduler(parameters: parameters), states)
    Benchmark("Scheduler: one decision, 50 candidate cards",
              configuration: .init(metrics: metrics, maxDuration: .seconds(3), maxIterations: 200_000)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(decider.next())
        }
    }
}
