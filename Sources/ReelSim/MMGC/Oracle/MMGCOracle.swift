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
/// - fewer or equal bytes (so every later transfer ends no later on the trace), and a value ahead
///   by at least 1.85/1000 per millisecond the other might lose, counting its later playhead and
///   the rounding each remaining download may add (a millisecond each);
/// - or a value so far, less the most stall any continuation could still cost it (every
///   remaining chunk at its largest), ahead of the other's value so far (and of the next
///   change's difference);
/// - or when even the best imaginable rest (every remaining chunk at its best level, changes
///   charged, no stall) cannot beat a plan already found.
/// All three keep the optimum. When a stage still holds more than `exactLimit` states (long
/// watches on slow traces, not the challenge's user), the search gives up on exactness: it
/// keeps a wide beam's plan and bounds the optimum by merging the states of each bucket of bytes
/// sent and playhead into one at least as good as each (fewest bytes, earliest clock and
/// playhead, most value), plus a millisecond of rounding per download. The value is then that
/// bound, and the figures beside it are the plan's.
package enum MMGCOracle {
    /// One download of the plan, in download order.
    package struct Download: Sendable, Equatable {
        package var video: Int
        package var chunk: Int
        package var level: Int
    }

    /// The optimum of the relaxed problem and the plan that reaches it.
    package struct Solution: Sendable {
        package var downloads: [Download]
        package var score: Double
        package var qoe: Double
        package var qualityKbps: Double
        package var changeKbps: Double
        package var rebufferMs: Double
        package var bytes: Double
        /// States the search kept, over all stages (its work).
        package var states: Int
        /// Whether `score` is the optimum of the relaxed problem (false: an upper bound on it,
        /// with the other figures those of the best plan found).
        package var optimal: Bool
    }

    static let rebufferPerMs = MMGCScorer.rebufferWeight / 1000
    static let costPerByte = MMGCScorer.bytesWeight * 8 / 1_000_000

    /// The best plan for `user` on `trace`.
    /// (`exactLimit`: the states a stage may hold before the search settles for a bound.)
    package static func solve(videos: [MMGCVideo], user: MMGCUser, trace: MMGCTrace, exactLimit: Int = exactLimit) -> Solution {
        let problem = Problem(videos: videos, user: user)
        return trace.seconds.withUnsafeBufferPointer { times in
            trace.mbps.withUnsafeBufferPointer { rates in
                var search = Search(problem: problem, times: times, rates: rates)
                // A good plan first (a beam), so the exact pass can drop what cannot beat it.
                let beam = search.run(incumbent: -.infinity, mode: .beam(64))!
                if let exact = search.run(incumbent: beam.total, mode: .exact(limit: exactLimit)) {
                    return search.solution(exact.total >= beam.total ? exact : beam, bound: nil)
                }
                // Too many states to tell apart: a wider beam for a better plan, and states merged
                // into optimistic ones for a bound.
                let wide = search.run(incumbent: beam.total, mode: .beam(512)) ?? beam
                let plan = wide.total >= beam.total ? wide : beam
                let merged = search.run(incumbent: plan.total, mode: .merged(bytes: 16_384, milliseconds: 200))
                let bound = max(plan.total, (merged?.total ?? -.infinity) + problem.roundingAllowance)
                return search.solution(plan, bound: bound)
            }
        }
    }

    /// States the exact search may keep at one stage before it gives up for a bound, and the
    /// merged search at most.
    package static let exactLimit = 20_000
    static let mergedLimit = 1_500

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

        /// A chunk a choice fetches.
        struct Fetch {
            var video: Int
            var chunk: Int
            var level: Int
            var bytes: Int
        }

        /// One way through a stage, given the level the next change is measured from: what it
        /// fetches in order, which of those the playhead then plays in order (and for how long),
        /// what the score counts for it, and the level the next change is measured from after it.
        struct Choice {
            var code: UInt8
            var fetches: [Fetch]
            var plays: [(fetch: Int, milliseconds: Double)]
            var quality: Double
            var change: Double
            var last: Int8
            /// Quality less changes less bytes, in points.
            var value: Double
        }

        var videos: [Video]
        var stages: [Stage] = []
        /// `choices[stage][last + 1]`: the ways through a stage after a chunk at `last` (-1: none).
        var choices: [[[Choice]]] = []
        /// `bestFuture[stage][last + 1]`: the most value stages `stage...` can add (every choice
        /// at its best, changes charged, no stall): a bound on any continuation.
        var bestFuture: [[Double]] = []

        /// What merged states may understate (points): a millisecond of rounding per download,
        /// at the rebuffering weight.
        var roundingAllowance: Double {
            MMGCOracle.rebufferPerMs * Double(stages.indices.reduce(0) { total, stage in
                if case .pair = stages[stage] { return total + 2 }
                return total + 1
            })
        }

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
            choices = stages.map { stage in (Int8(-1)...2).map { makeChoices(stage, last: $0) } }
            bestFuture = Array(repeating: Array(repeating: 0, count: 4), count: stages.count + 1)
            for stage in stages.indices.reversed() {
                for last in 0..<4 {
                    bestFuture[stage][last] = choices[stage][last].map { $0.value + bestFuture[stage + 1][Int($0.last) + 1] }.max() ?? -.infinity
                }
            }
        }

        /// Whether the boundary after `video` is searched both ways: the video's last scored chunk
        /// is played and not its first, and the next video's first chunk is not its last scored one.
        func pairable(_ video: Int) -> Bool {
            let before = videos[video], after = videos[video + 1]
            return before.lastScored < before.chunks && before.lastScored >= 1 && !before.optionalLast
                && after.lastScored >= 1 && after.needed >= 1
        }

        /// The ways through `stage` after a chunk at `last`, with the score's charges.
        func makeChoices(_ stage: Stage, last: Int8) -> [Choice] {
            let rate = MMGCScorer.bitratesKbps
            func fetch(_ video: Int, _ chunk: Int, _ level: Int) -> Fetch {
                Fetch(video: video, chunk: chunk, level: level, bytes: videos[video].sizes[level][chunk])
            }
            func choice(_ code: UInt8, _ fetches: [Fetch], plays: [(Int, Double)], change: Double, last: Int8) -> Choice {
                let quality = fetches.reduce(0) { $0 + rate[$1.level] }
                let bytes = fetches.reduce(0) { $0 + $1.bytes }
                return Choice(code: code, fetches: fetches, plays: plays, quality: quality, change: change, last: last,
                              value: quality / 1000 - change / 1000 - Double(bytes) * MMGCOracle.costPerByte)
            }
            switch stage {
            case .chunk(let video, let chunk, let optional):
                guard chunk == 0 || last >= 0 else { return [] }
                var result: [Choice] = []
                if optional { result.append(choice(3, [], plays: [], change: 0, last: -1)) }
                for level in 0..<MMGCDataset.levels {
                    var change = 0.0
                    if chunk > 0 {
                        change = abs(rate[level] - rate[Int(last)])
                    } else if video > 0 && last >= 0 {
                        // A boundary not searched both ways: the cheaper order's charge.
                        change = min(abs(rate[level] - rate[Int(last)]), rate[level])
                    }
                    let plays = chunk < videos[video].needed ? [(0, videos[video].played(chunk))] : []
                    result.append(choice(UInt8(level), [fetch(video, chunk, level)], plays: plays, change: change,
                                         last: lastAfter(video, chunk, level)))
                }
                return result
            case .pair(let video):
                guard last >= 0 else { return [] }
                let lastChunk = videos[video].lastScored
                let before = videos[video].played(lastChunk), after = videos[video + 1].played(0)
                var result: [Choice] = []
                for first in 0..<MMGCDataset.levels {
                    let toFirst = abs(rate[first] - rate[Int(last)])
                    for second in 0..<MMGCDataset.levels {
                        let code = UInt8(first * 3 + second)
                        let next = lastAfter(video + 1, 0, second)
                        // In play order: the next video's first chunk changes from the last scored one.
                        result.append(choice(code, [fetch(video, lastChunk, first), fetch(video + 1, 0, second)],
                                             plays: [(0, before), (1, after)], change: toFirst + abs(rate[second] - rate[first]), last: next))
                        // The next video's first chunk first: the last scored chunk is then charged its
                        // whole bitrate, the first chunk nothing (the set's record at its most favourable).
                        result.append(choice(code + 9, [fetch(video + 1, 0, second), fetch(video, lastChunk, first)],
                                             plays: [(1, before), (0, after)], change: toFirst + rate[second], last: next))
                    }
                }
                return result
            }
        }

        /// The media each played chunk of `stage` plays, in play order (the same for every choice).
        func played(_ stage: Int) -> [Double] {
            switch stages[stage] {
            case .chunk(let video, let chunk, _):
                return chunk < videos[video].needed ? [videos[video].played(chunk)] : []
            case .pair(let video):
                return [videos[video].played(videos[video].lastScored), videos[video + 1].played(0)]
            }
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
        var codes: [UInt8] = []
        var kept = 0

        init(problem: Problem, times: UnsafeBufferPointer<Double>, rates: UnsafeBufferPointer<Double>) {
            self.problem = problem
            self.times = times
            self.rates = rates
        }

        enum Mode {
            /// Keep the best few states per stage: a good plan, quickly.
            case beam(Int)
            /// Keep every state not provably beaten; give up past `limit` states at a stage.
            case exact(limit: Int)
            /// Merge the states of each bucket of bytes sent and playhead into one that is at
            /// least as good as each (fewest bytes, earliest clock and playhead, most value): a
            /// bound, with the rounding allowance.
            case merged(bytes: Int, milliseconds: Double)
        }

        /// The best final state of `mode`'s search; nil when the exact search gives up.
        mutating func run(incumbent: Double, mode: Mode) -> State? {
            var states = [State(bytes: 0, row: 1, traceTime: times[0], elapsed: 0, clock: 0, playEnd: 0, stall: 0, value: 0,
                                quality: 0, change: 0, last: -1, node: -1)]
            var allowance = 0.0
            if case .merged = mode { allowance = problem.roundingAllowance }
            for stage in problem.stages.indices {
                var next: [State] = []
                next.reserveCapacity(states.count * 6)
                for state in states { expand(state, stage: stage, into: &next, incumbent: incumbent - allowance) }
                switch mode {
                case .beam(let count):
                    states = keepBest(next, count)
                case .exact(let limit):
                    states = prune(next, stage: stage, checks: 256)
                    if states.count > limit { return nil }
                case .merged(let bytes, let milliseconds):
                    // Coarser buckets while there are too many: a looser bound, in bounded time.
                    var scale = 1
                    states = merge(next, bytes: bytes, milliseconds: milliseconds)
                    while states.count > MMGCOracle.mergedLimit {
                        scale *= 2
                        states = merge(states, bytes: bytes * scale, milliseconds: milliseconds * Double(scale))
                    }
                    states = prune(states, stage: stage, checks: 64)
                }
                kept += states.count
                if states.isEmpty { return nil }
            }
            return states.max { $0.total < $1.total }
        }

        /// One state per bucket of `bytes` sent and `milliseconds` of playhead (and last level):
        /// the bucket's fewest bytes (with that state's link position), its smallest offset of the
        /// clock over the trace time, its earliest playhead, its most value. Every state of the
        /// bucket does at most as well in any continuation, up to a millisecond of rounding per
        /// download, as this one.
        func merge(_ states: [State], bytes: Int, milliseconds: Double) -> [State] {
            struct Key: Hashable {
                var last: Int8
                var bytes: Int
                var play: Int
            }
            var buckets: [Key: State] = [:]
            for state in states {
                let key = Key(last: state.last, bytes: state.bytes / bytes, play: Int(state.playEnd / milliseconds))
                guard var merged = buckets[key] else {
                    buckets[key] = state
                    continue
                }
                let offset = min(merged.clock - 1000 * merged.elapsed, state.clock - 1000 * state.elapsed)
                if state.bytes < merged.bytes {
                    merged.bytes = state.bytes
                    merged.row = state.row
                    merged.traceTime = state.traceTime
                    merged.elapsed = state.elapsed
                }
                merged.clock = offset + 1000 * merged.elapsed
                merged.playEnd = min(merged.playEnd, state.playEnd)
                merged.stall = min(merged.stall, state.stall)
                if state.value > merged.value {
                    merged.value = state.value
                    merged.quality = state.quality
                    merged.change = state.change
                    merged.node = state.node
                }
                buckets[key] = merged
            }
            return Array(buckets.values)
        }

        /// The successors of `state` through `stage` that could still beat `incumbent`.
        mutating func expand(_ state: State, stage: Int, into next: inout [State], incumbent: Double) {
            for choice in problem.choices[stage][Int(state.last) + 1] {
                var child = state
                var arrivals = (0.0, 0.0)
                for (index, fetch) in choice.fetches.enumerated() {
                    let seconds = MMGCLink.send(fetch.bytes, times: times, rates: rates, row: &child.row, traceTime: &child.traceTime)
                    child.elapsed += seconds
                    child.bytes += fetch.bytes
                    child.clock += MMGCLink.rounded(seconds * 1000.0 + MMGCLink.requestMs)
                    if index == 0 { arrivals.0 = child.clock } else { arrivals.1 = child.clock }
                }
                for play in choice.plays { Self.play(&child, arrival: play.fetch == 0 ? arrivals.0 : arrivals.1, played: play.milliseconds) }
                child.value += choice.value
                child.quality += choice.quality
                child.change += choice.change
                child.last = choice.last
                guard child.total + problem.bestFuture[stage + 1][Int(child.last) + 1] >= incumbent - 1e-9 else { continue }
                child.node = Int32(parents.count)
                parents.append(state.node)
                codes.append(choice.code)
                next.append(child)
            }
        }

        /// The playhead reaches a chunk when it finishes the media before it, and waits for it.
        static func play(_ state: inout State, arrival: Double, played: Double) {
            if arrival > state.playEnd { state.stall += arrival - state.playEnd }
            state.playEnd = max(state.playEnd, arrival) + played
        }

        func keepBest(_ states: [State], _ count: Int) -> [State] {
            Array(states.sorted { $0.total > $1.total }.prefix(count))
        }

        /// Drops the states another provably beats in every continuation (see the type's notes):
        /// pairwise, by bytes, value, playhead and clock; and against the best few states, by
        /// the most stall any continuation can still cost them.
        func prune(_ states: [State], stage: Int, checks limit: Int) -> [State] {
            let remaining = problem.stages.indices.dropFirst(stage + 1).reduce(0) { $0 + downloads($1) }
            let slack = Double(remaining) + 1e-6
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
                        if checks > limit { break }
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
            // The best few states: what they are sure to keep whatever comes.
            let anchors = result.sorted { $0.total > $1.total }.prefix(4).map {
                (state: $0, floor: $0.total - MMGCOracle.rebufferPerMs * worstStall($0, after: stage))
            }
            return result.filter { candidate in
                !anchors.contains { anchor in
                    anchor.state.node != candidate.node && anchor.floor - Self.changeRisk(anchor.state.last, candidate.last) >= candidate.total
                }
            }
        }

        func downloads(_ stage: Int) -> Int {
            if case .pair = problem.stages[stage] { return 2 }
            return 1
        }

        /// How much more the next change can cost after a chunk at `anchor` than after one at
        /// `other` (points): their difference, or the largest change when `other` has none to
        /// measure from.
        static func changeRisk(_ anchor: Int8, _ other: Int8) -> Double {
            guard anchor >= 0, anchor != other else { return 0 }
            let rate = MMGCScorer.bitratesKbps
            guard other >= 0 else { return (rate.max()! - rate.min()!) / 1000 }
            return abs(rate[Int(anchor)] - rate[Int(other)]) / 1000
        }

        /// The most stall (ms) any continuation of `state` can still add: fetching every remaining
        /// chunk at its largest size, each arrival made later by a millisecond per download for
        /// the rounding, and a pair's two chunks both arriving after both. Fewer bytes sent never
        /// arrive later on this link, so no continuation stalls more.
        func worstStall(_ state: State, after stage: Int) -> Double {
            var current = state
            current.stall = 0
            var downloads = 0.0
            for next in (stage + 1)..<problem.stages.count {
                let options = problem.choices[next].joined()
                let fetches = options.map(\.fetches.count).max() ?? 0
                for index in 0..<fetches {
                    let bytes = options.map { $0.fetches.count > index ? $0.fetches[index].bytes : 0 }.max()!
                    let seconds = MMGCLink.send(bytes, times: times, rates: rates, row: &current.row, traceTime: &current.traceTime)
                    current.clock += MMGCLink.rounded(seconds * 1000.0 + MMGCLink.requestMs)
                    downloads += 1
                }
                for played in problem.played(next) { Self.play(&current, arrival: current.clock + downloads, played: played) }
            }
            return current.stall
        }

        /// The plan and figures of a final state.
        func solution(_ final: State, bound: Double?) -> Solution {
            var picks: [UInt8] = []
            var node = final.node
            while node >= 0 {
                picks.append(codes[Int(node)])
                node = parents[Int(node)]
            }
            picks.reverse()
            var downloads: [Download] = []
            var last: Int8 = -1
            for (stage, pick) in picks.enumerated() {
                let choice = problem.choices[stage][Int(last) + 1].first { $0.code == pick }!
                downloads += choice.fetches.map { Download(video: $0.video, chunk: $0.chunk, level: $0.level) }
                last = choice.last
            }
            let qoe = final.quality / 1000 - MMGCOracle.rebufferPerMs * final.stall - final.change / 1000
            return Solution(downloads: downloads, score: bound ?? final.total, qoe: qoe, qualityKbps: final.quality,
                            changeKbps: final.change, rebufferMs: final.stall, bytes: Double(final.bytes), states: kept,
                            optimal: bound == nil)
        }
    }
}
