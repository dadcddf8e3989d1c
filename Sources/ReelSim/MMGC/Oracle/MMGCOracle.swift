/// The best score any policy can reach on a trace, for a policy that knows every watch time and
/// the whole trace: an exact optimum over a relaxation of the challenge, and the plan that
/// reaches it, which `MMGCOraclePlan` then plays through the real simulator and scorer.
///
/// **Why a plan of this shape is optimal.** Take any run of any policy that finishes the session
/// (one that does not never ends, and scores −10^9). Call a chunk *scored* when its index is at
/// most `floor(watch / 1000)`, and *needed* when the user plays part of it (index below
/// `ceil(watch / 1000)`); every run downloads every needed chunk. Then:
/// 1. Trace time moves only during transfers, so the time a transfer takes depends only on the
///    bytes sent before it and its own size, and the trace position after `B` bytes, T(B), grows
///    with B. Removing a download (a chunk that is not scored earns nothing, changes nothing,
///    and only costs bytes) or a wait moves every later arrival earlier or leaves it; stalls can
///    only shrink, as a stall is the time a needed chunk arrives after the playhead needs it.
/// 2. Among orders of the same downloads, swapping two neighbours so that the one played first
///    comes first moves that one earlier and the other to where the first one ended (same bytes
///    before it): no chunk is played later. The only order that the score itself can reward is
///    the challenge's quirk at a video boundary: the next video's first chunk decided before the
///    previous video's last scored chunk costs that first chunk's full bitrate (instead of the
///    change between the two), plus the change from whatever level the set's memory holds. So
///    play order is best, except possibly for that one pair at each boundary, which the search
///    tries both ways.
/// 3. Levels are then the only choice: the search below tries them all, for every chunk, and
///    skips or fetches a scored chunk nobody plays (a watch of exactly `k × 1000` ms).
///
/// **The relaxation.** To stay a bound for every policy on every trace, the search (a) lets a
/// video be fetched before it enters the 5-video queue (and after it was swiped), (b) takes the
/// set's smoothness memory at its most favourable (no change charged where the challenge would
/// read a level recorded on an earlier trace), and (c) where a boundary's pair overlaps another
/// (a video with one scored chunk) or involves an unplayed chunk, charges the cheaper of the two
/// orders with the play-order timing. A policy's run obeys all three, so the value is at least
/// its score. When the plan, played through the real simulator, scores the same (none of the
/// three bound), the value is reached: it is the exact optimum.
///
/// **Rounding.** The challenge rounds each delay to a whole millisecond. Points 1 and 2 hold for
/// the unrounded delays; rounding can move an arrival by up to half a millisecond per download
/// either way, so another order of the same chunks could in principle gain up to that much stall
/// (1.85 × n / 2000 points for n downloads, under 0.05 here). Within the plans searched, rounding
/// is exact: every delay is computed as the simulator computes it.
///
/// **The search.** Stages follow play order (one chunk, or a boundary's pair in either order),
/// with states (bytes sent, link position, clock, playhead's end, value so far, last level). A
/// state is dropped only when another provably does at least as well in every continuation:
/// fewer or equal bytes (so every later transfer ends no later on the trace), and a value ahead
/// by at least 1.85/1000 per millisecond the other might lose, counting its later playhead and
/// the rounding each remaining download may add (a millisecond each); or when even the best
/// imaginable rest (every remaining chunk at its best value, no change, no stall) cannot beat
/// a plan already found. Both keep the optimum.
public enum MMGCOracle {
    /// One download of the plan, in download order.
    public struct Download: Sendable, Equatable {
        public var video: Int
        public var chunk: Int
        public var level: Int
    }

    /// The optimum of the relaxed problem and the plan that reaches it.
    public struct Solution: Sendable {
        public var downloads: [Download]
        public var score: Double
        public var qoe: Double
        public var qualityKbps: Double
        public var changeKbps: Double
        public var rebufferMs: Double
        public var bytes: Double
        /// States the search kept, over all stages (its work).
        public var states: Int
    }

    static let rebufferPerMs = MMGCScorer.rebufferWeight / 1000
    static let costPerByte = MMGCScorer.bytesWeight * 8 / 1_000_000

    /// The best plan for `user` on `trace`.
    public static func solve(videos: [MMGCVideo], user: MMGCUser, trace: MMGCTrace) -> Solution {
        let problem = Problem(videos: videos, user: user)
        return trace.seconds.withUnsafeBufferPointer { times in
            trace.mbps.withUnsafeBufferPointer { rates in
                var search = Search(problem: problem, times: times, rates: rates)
                // A good plan first (a beam), so the exact pass can drop what cannot beat it.
                let beam = search.run(incumbent: -.infinity, beam: 64)
                let exact = search.run(incumbent: beam.map { $0.total } ?? -.infinity, beam: nil)
                let best = [exact, beam].compactMap { $0 }.max { $0.total < $1.total }!
                return search.solution(best)
            }
        }
    }

    // MARK: - The problem

    /// What the user does with each video, and the stages of the search.
    struct Problem {
        struct Video {
            var watch: Double
            var chunks: Int
            /// The last scored index (`floor(watch / 1000)`; the chunk count for a whole watch).
            var lastScored: Int
            /// Chunks played (`ceil(watch / 1000)`).
            var needed: Int
            /// The scored chunk `lastScored` is not played (a watch of exactly that many seconds).
            var optionalLast: Bool
            var sizes: [[Int]]

            /// Milliseconds of chunk `chunk` played.
            func played(_ chunk: Int) -> Double { min(MMGCSession.chunkMs, watch - Double(chunk) * MMGCSession.chunkMs) }
        }

        enum Stage {
            /// One chunk in play order; `optional` when it is scored but not played.
            case chunk(video: Int, chunk: Int, optional: Bool)
            /// The last scored chunk of `video` and the first of the next, in either order.
            case pair(video: Int)
        }

        var videos: [Video]
        var stages: [Stage] = []
        /// The most value stages `s...` can add (every chunk at its best, nothing charged).
        var bestRest: [Double] = []
        /// Downloads stages after `s` make at most.
        var downloadsAfter: [Int] = []

        init(videos: [MMGCVideo], user: MMGCUser) {
            self.videos = zip(videos, user.watchMs).map { video, watch in
                let lastScored = Int((watch / MMGCSession.chunkMs).rounded(.down))
                let needed = min(video.chunkCount, Int((watch / MMGCSession.chunkMs).rounded(.up)))
                return Video(watch: watch, chunks: video.chunkCount, lastScored: lastScored, needed: needed,
                             optionalLast: lastScored < video.chunkCount && lastScored >= needed, sizes: video.sizes)
            }
            var first = 0
            for index in self.videos.indices {
                let video = self.videos[index]
                let end = min(video.lastScored + 1, video.chunks)
                let pairNext = index + 1 < self.videos.count && pairable(index)
                var chunk = first
                while chunk < (pairNext ? video.lastScored : end) {
                    stages.append(.chunk(video: index, chunk: chunk, optional: video.optionalLast && chunk == video.lastScored))
                    chunk += 1
                }
                if pairNext { stages.append(.pair(video: index)) }
                first = pairNext ? 1 : 0
            }
            bestRest = Array(repeating: 0, count: stages.count + 1)
            downloadsAfter = Array(repeating: 0, count: stages.count + 1)
            for stage in stages.indices.reversed() {
                let gain: Double
                switch stages[stage] {
                case .chunk(let video, let chunk, let optional):
                    gain = max(optional ? 0 : -.infinity, best(video, chunk))
                case .pair(let video):
                    gain = best(video, self.videos[video].lastScored) + best(video + 1, 0)
                }
                bestRest[stage] = bestRest[stage + 1] + gain
                downloadsAfter[stage] = downloadsAfter[stage + 1] + (stage + 1 < stages.count ? stageDownloads(stage + 1) : 0)
            }
        }

        func stageDownloads(_ stage: Int) -> Int {
            if case .pair = stages[stage] { return 2 }
            return 1
        }

        /// Whether the boundary after `video` is searched both ways: the video's last scored chunk
        /// is played and not its first, and the next video's first chunk is not its last scored one.
        func pairable(_ video: Int) -> Bool {
            let before = videos[video], after = videos[video + 1]
            return before.lastScored < before.chunks && before.lastScored >= 1 && !before.optionalLast
                && after.lastScored >= 1 && after.needed >= 1
        }

        /// A chunk's value at its best level.
        func best(_ video: Int, _ chunk: Int) -> Double {
            (0..<MMGCDataset.levels).map { gain(video, chunk, $0) }.max()!
        }

        /// Quality less bytes for a chunk at a level.
        func gain(_ video: Int, _ chunk: Int, _ level: Int) -> Double {
            MMGCScorer.bitratesKbps[level] / 1000 - Double(videos[video].sizes[level][chunk]) * MMGCOracle.costPerByte
        }

        /// The level the next chunk's change is measured from after `chunk` of `video` at `level`:
        /// none after the last chunk of a whole watch (the challenge records nothing then).
        func lastAfter(_ video: Int, _ chunk: Int, _ level: Int) -> Int8 {
            let info = videos[video]
            return info.lastScored >= info.chunks && chunk == info.chunks - 1 ? -1 : Int8(level)
        }
    }

    // MARK: - The search

    struct State {
        var bytes: Int
        var row: Int
        var traceTime: Double
        /// Trace seconds consumed.
        var elapsed: Double
        /// The challenge's clock at the last arrival, ms.
        var clock: Double
        /// When the playhead finishes the media fetched so far, ms.
        var playEnd: Double
        var stall: Double
        /// Quality less changes less bytes, in points.
        var value: Double
        var quality: Double
        var change: Double
        /// The level the next chunk's change is measured from (-1: none).
        var last: Int8
        var node: Int32

        var total: Double { value - MMGCOracle.rebufferPerMs * stall }
    }

    struct Search {
        let problem: Problem
        let times: UnsafeBufferPointer<Double>
        let rates: UnsafeBufferPointer<Double>
        /// Every state's parent and choice, to read the plan back.
        var parents: [Int32] = []
        var choices: [UInt8] = []
        var kept = 0

        init(problem: Problem, times: UnsafeBufferPointer<Double>, rates: UnsafeBufferPointer<Double>) {
            self.problem = problem
            self.times = times
            self.rates = rates
        }

        /// The best final state: exhaustively (`beam` nil), or keeping the `beam` best per stage.
        mutating func run(incumbent: Double, beam: Int?) -> State? {
            var states = [State(bytes: 0, row: 1, traceTime: times[0], elapsed: 0, clock: 0, playEnd: 0, stall: 0, value: 0,
                                quality: 0, change: 0, last: -1, node: -1)]
            for stage in problem.stages.indices {
                var next: [State] = []
                next.reserveCapacity(states.count * 4)
                let bound = incumbent - 1e-9 - problem.bestRest[stage + 1]
                for state in states { expand(state, stage: stage, into: &next, bound: bound) }
                states = beam.map { keepBest(next, $0) } ?? prune(next, stage: stage)
                kept += states.count
                if states.isEmpty { return nil }
            }
            return states.max { $0.total < $1.total }
        }

        /// The successors of `state` through `stage` whose value could still beat `bound` plus
        /// the best rest.
        mutating func expand(_ state: State, stage: Int, into next: inout [State], bound: Double) {
            switch problem.stages[stage] {
            case .chunk(let video, let chunk, let optional):
                if optional {
                    var skip = state
                    skip.last = -1
                    add(skip, parent: state, choice: 3, bound: bound, into: &next)
                }
                for level in 0..<MMGCDataset.levels {
                    var child = state
                    let info = problem.videos[video]
                    var change = 0.0
                    if chunk > 0 {
                        change = abs(MMGCScorer.bitratesKbps[level] - MMGCScorer.bitratesKbps[Int(state.last)])
                    } else if video > 0 && state.last >= 0 {
                        // A boundary not searched both ways: the cheaper order's charge.
                        let quality = MMGCScorer.bitratesKbps[level]
                        change = min(abs(quality - MMGCScorer.bitratesKbps[Int(state.last)]), quality)
                    }
                    fetch(&child, video: video, chunk: chunk, level: level, change: change, played: chunk < info.needed)
                    child.last = problem.lastAfter(video, chunk, level)
                    add(child, parent: state, choice: UInt8(level), bound: bound, into: &next)
                }
            case .pair(let video):
                let lastChunk = problem.videos[video].lastScored
                for before in 0..<MMGCDataset.levels {
                    let toBefore = abs(MMGCScorer.bitratesKbps[before] - MMGCScorer.bitratesKbps[Int(state.last)])
                    for after in 0..<MMGCDataset.levels {
                        let quality = MMGCScorer.bitratesKbps[after]
                        for swapped in [false, true] {
                            var child = state
                            if swapped {
                                // The next video's first chunk first: the last scored chunk is then charged its bitrate.
                                let arrival = fetchTime(&child, video: video + 1, chunk: 0, level: after)
                                accrue(&child, video: video + 1, level: after, change: 0)
                                fetch(&child, video: video, chunk: lastChunk, level: before, change: toBefore + quality, played: true)
                                play(&child, arrival: arrival, played: problem.videos[video + 1].played(0))
                            } else {
                                fetch(&child, video: video, chunk: lastChunk, level: before, change: toBefore, played: true)
                                fetch(&child, video: video + 1, chunk: 0, level: after,
                                      change: abs(quality - MMGCScorer.bitratesKbps[before]), played: true)
                            }
                            child.last = problem.lastAfter(video + 1, 0, after)
                            add(child, parent: state, choice: UInt8(before * 3 + after + (swapped ? 9 : 0)), bound: bound, into: &next)
                        }
                    }
                }
            }
        }

        mutating func add(_ child: State, parent: State, choice: UInt8, bound: Double, into next: inout [State]) {
            guard child.total >= bound else { return }
            var child = child
            child.node = Int32(parents.count)
            parents.append(parent.node)
            choices.append(choice)
            next.append(child)
        }

        /// Downloads a chunk and, when it is played, lets the playhead use it.
        func fetch(_ state: inout State, video: Int, chunk: Int, level: Int, change: Double, played: Bool) {
            let arrival = fetchTime(&state, video: video, chunk: chunk, level: level)
            accrue(&state, video: video, level: level, change: change)
            if played { play(&state, arrival: arrival, played: problem.videos[video].played(chunk)) }
        }

        /// Sends a chunk over the link; returns its arrival on the challenge's clock.
        func fetchTime(_ state: inout State, video: Int, chunk: Int, level: Int) -> Double {
            let bytes = problem.videos[video].sizes[level][chunk]
            let seconds = MMGCLink.send(bytes, times: times, rates: rates, row: &state.row, traceTime: &state.traceTime)
            state.elapsed += seconds
            state.bytes += bytes
            state.clock += MMGCLink.rounded(seconds * 1000.0 + MMGCLink.requestMs)
            state.value -= Double(bytes) * MMGCOracle.costPerByte
            return state.clock
        }

        func accrue(_ state: inout State, video: Int, level: Int, change: Double) {
            let quality = MMGCScorer.bitratesKbps[level]
            state.value += quality / 1000 - change / 1000
            state.quality += quality
            state.change += change
        }

        /// The playhead reaches this chunk when it finishes the media before it, and waits for it.
        func play(_ state: inout State, arrival: Double, played: Double) {
            if arrival > state.playEnd { state.stall += arrival - state.playEnd }
            state.playEnd = max(state.playEnd, arrival) + played
        }

        func keepBest(_ states: [State], _ count: Int) -> [State] {
            Array(states.sorted { $0.total > $1.total }.prefix(count))
        }

        /// Drops the states another provably beats in every continuation (see the type's notes).
        func prune(_ states: [State], stage: Int) -> [State] {
            let slack = Double(problem.downloadsAfter[stage]) + 1e-6
            var result: [State] = []
            for last in Int8(-1)...2 {
                let group = states.filter { $0.last == last }.sorted {
                    $0.bytes != $1.bytes ? $0.bytes < $1.bytes : $0.total > $1.total
                }
                var kept: [State] = []
                kept.reserveCapacity(group.count)
                for candidate in group {
                    var dominated = false
                    var checks = 0
                    for other in kept.reversed() {
                        checks += 1
                        if checks > 512 { break }
                        let lead = max(0, other.playEnd - candidate.playEnd,
                                       (other.clock - 1000 * other.elapsed) - (candidate.clock - 1000 * candidate.elapsed) + slack)
                        if other.value - candidate.value >= MMGCOracle.rebufferPerMs * lead {
                            dominated = true
                            break
                        }
                    }
                    if !dominated { kept.append(candidate) }
                }
                result += kept
            }
            return result
        }

        /// The plan and figures of a final state.
        func solution(_ final: State) -> Solution {
            var picks: [UInt8] = []
            var node = final.node
            while node >= 0 {
                picks.append(choices[Int(node)])
                node = parents[Int(node)]
            }
            picks.reverse()
            var downloads: [Download] = []
            for (stage, pick) in zip(problem.stages, picks) {
                switch stage {
                case .chunk(let video, let chunk, _):
                    if pick < 3 { downloads.append(Download(video: video, chunk: chunk, level: Int(pick))) }
                case .pair(let video):
                    let before = Download(video: video, chunk: problem.videos[video].lastScored, level: Int(pick % 9) / 3)
                    let after = Download(video: video + 1, chunk: 0, level: Int(pick % 9) % 3)
                    downloads += pick >= 9 ? [after, before] : [before, after]
                }
            }
            let qoe = final.quality / 1000 - MMGCOracle.rebufferPerMs * final.stall - final.change / 1000
            return Solution(downloads: downloads, score: final.total, qoe: qoe, qualityKbps: final.quality, changeKbps: final.change,
                            rebufferMs: final.stall, bytes: Double(final.bytes), states: kept)
        }
    }
}
