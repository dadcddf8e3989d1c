import Foundation
import ReelCore
import ReelNet

/// `reel stress`: `widgets` cards mount, play, pause and unmount at random (seeded) over the
/// inputs for the run's duration, sharing one `DecoderPool`; the run checks the pool's
/// invariants and the process's memory, and reports reuse, acquire latency and frames.
/// Its bookkeeping runs on a thread of its own (RSS reads); players do their own work.
public actor StressRun {
    private let executor = DedicatedThreadExecutor(name: "reel.stress")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public nonisolated let options: StressOptions
    private let factory: any DataSourceFactory
    private let pool: DecoderPool
    private var tally = Tally()
    /// RSS samples: seconds since the start, megabytes.
    private var samples: [(at: Double, mb: Double)] = []
    private var midMB: Double?
    /// The pool's counters at the middle, for the reuse ratio after warm-up.
    private var midStats: DecoderPoolStatistics?
    private var breaches: Set<String> = []
    /// Players mounted now, by card, for the live frame count.
    private var live: [String: Player] = [:]

    private struct Tally {
        var mounted = 0
        var playing = 0
        var mounts = 0, plays = 0, pauses = 0, unmounts = 0, ended = 0
        var frames = 0, stalls = 0, rebuffers = 0
        var errors: [String] = []
        var errorCount = 0
        var ttff: [Double] = []
    }

    /// `factory` makes every data source the players open.
    public init(options: StressOptions, factory: any DataSourceFactory) {
        self.options = options
        self.factory = factory
        self.pool = DecoderPool(capacity: options.poolSize, threads: options.threads)
    }

    deinit { executor.shutdown() }

    /// Runs the cards until the duration is over and every card unmounted; `progress` hears the
    /// state about four times a second.
    public func run(progress: (@Sendable (StressProgress) -> Void)? = nil) async -> StressReport {
        let started = ContinuousClock.now
        let deadline = started + options.duration
        let startMB = ResidentMemory.megabytes() ?? 0
        samples = [(0, startMB)]
        let endMB = await withTaskGroup(of: Double?.self) { group in
            for index in 0..<max(1, options.widgets) {
                group.addTask { await self.card(index, until: deadline); return nil }
            }
            group.addTask { await self.monitor(started: started, deadline: deadline, progress: progress) }
            var end: Double?
            for await value in group where value != nil { end = value }
            return end ?? ResidentMemory.megabytes() ?? 0
        }
        let stats = await pool.statistics
        check(stats)
        if stats.held != 0 { breaches.insert("\(stats.held) decoders still held after every card unmounted") }
        if stats.waiting != 0 { breaches.insert("\(stats.waiting) requests still waiting after every card unmounted") }
        return report(stats: stats, startMB: startMB, endMB: endMB, elapsed: ContinuousClock.now - started)
    }

    // MARK: - Cards

    /// One card slot: mount a random input, play and pause it a few times, unmount; again until
    /// the deadline.
    private func card(_ index: Int, until deadline: ContinuousClock.Instant) async {
        var random = SeededRandom(seed: Int(truncatingIfNeeded: options.seed), stream: UInt64(index), position: 0)
        var cycle = 0
        while ContinuousClock.now < deadline, !options.inputs.isEmpty {
            cycle += 1
            let input = random.pick(options.inputs)
            let player = Player(card: "w\(index)/\(cycle)", input: input, factory: factory, pool: pool, options: options.player)
            tally.mounts += 1
            tally.mounted += 1
            live[player.card] = player
            player.prepare()
            await rest(draw(options.mountedMs, &random), until: deadline)
            for _ in 0..<draw(options.playsPerMount, &random) where ContinuousClock.now < deadline {
                player.play()
                tally.plays += 1
                tally.playing += 1
                await rest(draw(options.playingMs, &random), until: deadline)
                player.pause()
                tally.pauses += 1
                tally.playing -= 1
                await rest(draw(options.pausedMs, &random), until: deadline)
            }
            let report = await player.stop()
            live[player.card] = nil
            tally.unmounts += 1
            tally.mounted -= 1
            record(report)
        }
    }

    private func record(_ report: PlayerReport) {
        tally.frames += report.frames
        tally.stalls += report.stalls
        tally.rebuffers += report.rebuffers
        if report.ended { tally.ended += 1 }
        if let ttff = report.ttff, report.frames > 0 { tally.ttff.append(ttff.totalMs) }
        if let error = report.error {
            tally.errorCount += 1
            if tally.errors.count < 20 { tally.errors.append("\(report.card) \(report.url): \(error)") }
        }
    }

    private func rest(_ milliseconds: Int, until deadline: ContinuousClock.Instant) async {
        let wake = min(ContinuousClock.now + .milliseconds(milliseconds), deadline)
        try? await Task.sleep(until: wake, clock: .continuous)
    }

    private func draw(_ range: ClosedRange<Int>, _ random: inout SeededRandom) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    // MARK: - Watching

    /// Samples RSS and the pool's invariants four times a second until the deadline; returns the
    /// RSS at the deadline.
    private func monitor(started: ContinuousClock.Instant, deadline: ContinuousClock.Instant,
                         progress: (@Sendable (StressProgress) -> Void)?) async -> Double {
        let middle = started + options.duration / 2
        while true {
            let now = ContinuousClock.now
            let rss = ResidentMemory.megabytes() ?? 0
            samples.append(((now - started).seconds, rss))
            let stats = await pool.statistics
            if midMB == nil && now >= middle {
                midMB = rss
                midStats = stats
            }
            check(stats)
            progress?(StressProgress(
                elapsed: min(now, deadline) - started, duration: options.duration, mounted: tally.mounted,
                playing: tally.playing, pool: stats, frames: tally.frames + live.values.reduce(0) { $0 + $1.status.frames },
                errors: tally.errorCount, rssMB: rss))
            if now >= deadline { return rss }
            try? await Task.sleep(until: min(now + .milliseconds(250), deadline), clock: .continuous)
        }
    }

    private func median(from start: Double, to end: Double) -> Double? {
        let window = samples.filter { $0.at >= start && $0.at <= end }.map(\.mb).sorted()
        return window.isEmpty ? nil : window[window.count / 2]
    }

    /// Least-squares slope of RSS over time, in MB per second.
    private static func slope(_ points: [(at: Double, mb: Double)]) -> Double {
        guard points.count > 1 else { return 0 }
        let n = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.at } / n, meanY = points.reduce(0) { $0 + $1.mb } / n
        let covariance = points.reduce(0) { $0 + ($1.at - meanX) * ($1.mb - meanY) }
        let variance = points.reduce(0) { $0 + ($1.at - meanX) * ($1.at - meanX) }
        return variance > 0 ? covariance / variance : 0
    }

    private func check(_ stats: DecoderPoolStatistics) {
        if stats.maxLive > options.poolSize {
            breaches.insert("\(stats.maxLive) decoders alive at once in a pool of \(options.poolSize)")
        }
        if stats.breaches > 0 { breaches.insert("\(stats.breaches) uses of a decoder by a card that did not hold it") }
        if stats.held > options.poolSize { breaches.insert("\(stats.held) decoders held in a pool of \(options.poolSize)") }
    }

    private func report(stats: DecoderPoolStatistics, startMB: Double, endMB deadlineMB: Double, elapsed: Duration) -> StressReport {
        // RSS moves by a few percent with what the players hold at the instant (buffers, frames in
        // flight), so "at the middle" and "at the end" are medians of the samples of 10% of the run.
        let total = options.duration.seconds
        let mid = median(from: 0.45 * total, to: 0.55 * total) ?? midMB ?? deadlineMB
        let endMB = median(from: 0.9 * total, to: total + 1) ?? deadlineMB
        let limit = mid * (1 + options.leakFraction) + options.leakSlackMB
        let later = samples.filter { $0.at >= total / 2 }
        let ttff = Distribution(tally.ttff)
        let leak = endMB > limit
        let warm = midStats ?? DecoderPoolStatistics()
        let laterAcquires = stats.acquires - warm.acquires
        let laterReuse = laterAcquires == 0 ? 1 : Double(stats.reused - warm.reused) / Double(laterAcquires)
        let breachList = breaches.sorted()
        return StressReport(
            widgets: options.widgets, poolSize: options.poolSize, seconds: elapsed.seconds, seed: options.seed,
            reuseRatio: stats.reuseRatio, reuseRatioAfterWarmUp: laterReuse, errors: tally.errorCount, errorMessages: tally.errors,
            acquires: stats.acquires, acquireMs: stats.acquireMs, idleMatchAcquireMs: stats.idleMatchAcquireMs,
            decoders: .init(created: stats.created, reused: stats.reused, reconfigured: stats.reconfigured,
                            evicted: stats.evicted, maxLive: stats.maxLive),
            waits: stats.waits, preemptions: stats.preemptions, frames: tally.frames,
            cards: .init(mounts: tally.mounts, plays: tally.plays, pauses: tally.pauses, unmounts: tally.unmounts,
                         ended: tally.ended),
            ttffMs: ttff.percentiles,
            stalls: tally.stalls, rebuffers: tally.rebuffers,
            rss: .init(startMB: startMB, midMB: mid, endMB: endMB, peakMB: samples.map(\.mb).max() ?? endMB,
                       limitMB: limit, afterWarmUpMinMB: later.map(\.mb).min() ?? endMB,
                       afterWarmUpMaxMB: later.map(\.mb).max() ?? endMB,
                       trendMBPerMinute: Self.slope(later) * 60),
            invariantBreaches: breachList, leak: leak,
            passed: tally.errorCount == 0 && breachList.isEmpty && !leak)
    }
}
