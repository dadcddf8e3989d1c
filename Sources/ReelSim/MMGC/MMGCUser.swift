import ReelCore

/// The challenge's user: watches every video once, in order, each for a predetermined time drawn
/// from its retention curve, then swipes to the next. The same user is replayed on every trace.
///
/// The draw is `run.py`'s, bit for bit (`Retention.__init__` with numpy's legacy generator and
/// CPython's `random`): `seed(s)` then `randint(100, size=(n, 2))` gives two seeds per video;
/// with the first, numpy's `choice` picks the second t at which the viewer leaves with
/// probability r(t) - r(t + 1); unless that is the video's end, the second seeds CPython's
/// `random` and the time is `int(uniform(t, t + 1000))` ms. Seed 42 (the challenge's) gives
/// 12421, 13323, 2905, 3791, 1859, 6000 and 1956 ms on its seven videos.
package struct MMGCUser: Sendable, Equatable {
    /// The challenge's seed.
    package static let challengeSeed: UInt32 = 42

    /// Milliseconds each video is watched (stalls not counted); a whole video's length when
    /// watched to the end.
    package var watchMs: [Double]

    package init(watchMs: [Double]) {
        self.watchMs = watchMs
    }

    /// The user `seed` draws for `videos`, as `run.py` draws it.
    package init(seed: UInt32 = challengeSeed, videos: [MMGCVideo]) {
        var generator = MersenneTwister(numpySeed: seed)
        let seeds = videos.map { _ in (generator.nextInt(below: 100), generator.nextInt(below: 100)) }
        watchMs = zip(videos, seeds).map { video, pair in Self.draw(video.retentionRows, first: pair.0, second: pair.1) }
    }

    /// The watch time for one video from its retention rows (end marker included).
    static func draw(_ rows: [Double], first: UInt32, second: UInt32) -> Double {
        // numpy: churn = 1 - r; p = diff(churn); choice(times[:-1], p) by a cumulative sum
        // normalised by its last value and a search for the first entry above the draw.
        var cumulative: [Double] = []
        cumulative.reserveCapacity(rows.count - 1)
        var sum = 0.0
        for t in 0..<(rows.count - 1) {
            sum += (1.0 - rows[t + 1]) - (1.0 - rows[t])
            cumulative.append(sum)
        }
        let total = cumulative[cumulative.count - 1]
        var numpy = MersenneTwister(numpySeed: first)
        let u = numpy.nextDouble()
        let index = cumulative.firstIndex { $0 / total > u } ?? cumulative.count - 1
        let interval = Double(index) * 1000.0
        let end = Double(rows.count - 2) * 1000.0
        if interval == end { return interval }
        var python = MersenneTwister(pythonSeed: UInt64(second))
        return (interval + (interval + 1000 - interval) * python.nextDouble()).rounded(.towardZero)
    }

    /// The last chunk the challenge's score counts for each video: `floor(watch / 1000)` (the
    /// video's chunk count for a whole watch, so no chunk of it has that index).
    package var lastScoredChunk: [Int] { watchMs.map { Int(($0 / 1000).rounded(.down)) } }
}
