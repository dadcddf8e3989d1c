import Foundation
import ReelCore
import ReelFeed

/// The scoreboard `reel bench mmgc` prints: per trace set, a policy beside the challenge's two
/// baselines and the oracle (`--json` writes this shape).
package struct MMGCBoard: Sendable, Codable, Equatable {
    package var sets: [MMGCSetBoard]

    package init(sets: [MMGCSetBoard]) {
        self.sets = sets
    }
}

package struct MMGCSetBoard: Sendable, Codable, Equatable {
    package struct Baselines: Sendable, Codable, Equatable {
        package var noSave: MMGCSummary
        package var fixedPreload: MMGCSummary

        enum CodingKeys: String, CodingKey {
            case noSave = "no_save"
            case fixedPreload = "fixed_preload"
        }
    }

    package var name: String
    package var policy: MMGCSummary
    package var baselines: Baselines
    package var oracle: MMGCSummary
}

/// Everything measured on one set: every trace's result for each policy, and the oracle's.
package struct MMGCSetReport: Sendable {
    package var name: String
    package var policyName: String
    package var policy: [MMGCTraceResult]
    package var noSave: [MMGCTraceResult]
    package var fixedPreload: [MMGCTraceResult]
    /// The oracle's optimum per trace (an upper bound on every policy's score).
    package var oracle: [MMGCTraceResult]
    /// The oracle's plan played through the simulator, per trace.
    package var oracleReplay: [MMGCTraceResult]

    /// Traces where the replayed plan reaches the optimum: there, it is exact.
    package var exactTraces: Int {
        zip(oracle, oracleReplay).filter { abs($0.score - $1.score) <= 1e-6 }.count
    }

    /// Policies that scored above the oracle on a trace (none, if the oracle is right).
    package var aboveOracle: [String] {
        var found: [String] = []
        for (name, results) in [(policyName, policy), ("no_save", noSave), ("fixed_preload", fixedPreload)] {
            for (result, bound) in zip(results, oracle) where result.score > bound.score + 1e-9 {
                found.append(String(format: "%@ on %@/%@: %.6f > %.6f", name, self.name, result.trace, result.score, bound.score))
            }
        }
        return found
    }

    package var board: MMGCSetBoard {
        MMGCSetBoard(name: name, policy: MMGCSummary(name: policyName, results: policy),
                     baselines: .init(noSave: MMGCSummary(name: "no_save", results: noSave),
                                      fixedPreload: MMGCSummary(name: "fixed_preload", results: fixedPreload)),
                     oracle: MMGCSummary(name: "oracle", results: oracle))
    }
}

/// Runs the benchmark: a policy, the two baselines and the oracle on each trace set, with the
/// challenge's videos, user, link and score. Sets and policies run in parallel; within a set a
/// policy's traces run in order (the smoothness memory is the set's).
package enum MMGCBench {
    package static func run(videos: [MMGCVideo], sets: [MMGCTraceSet], policy: String, user: MMGCUser,
                           config: ReelConfig = ReelConfig()) async throws -> [MMGCSetReport] {
        _ = try MMGCPolicies.make(policy == "oracle" ? "reel" : policy, config: config)
        enum Job: Sendable {
            case policy(set: Int, name: String)
            case oracle(set: Int, trace: Int)
        }
        enum Outcome: Sendable {
            case policy(set: Int, name: String, [MMGCTraceResult])
            case oracle(set: Int, trace: Int, MMGCOracle.Solution)
        }
        var jobs: [Job] = []
        for index in sets.indices {
            for name in Set(["no_save", "fixed_preload", policy]).subtracting(["oracle"]).sorted() {
                jobs.append(.policy(set: index, name: name))
            }
            for trace in sets[index].traces.indices { jobs.append(.oracle(set: index, trace: trace)) }
        }
        var policies: [Int: [String: [MMGCTraceResult]]] = [:]
        var solutions: [Int: [Int: MMGCOracle.Solution]] = [:]
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            // Two at a time: the machine's cores; more only queue on the pool.
            var pending = jobs[...]
            func start(_ job: Job) {
                group.addTask {
                    switch job {
                    case .policy(let set, let name):
                        let results = try MMGCRun.set(sets[set], videos: videos, user: user) { try MMGCPolicies.make(name, config: config) }
                        return .policy(set: set, name: name, results)
                    case .oracle(let set, let trace):
                        return .oracle(set: set, trace: trace, MMGCOracle.solve(videos: videos, user: user, trace: sets[set].traces[trace]))
                    }
                }
            }
            for _ in 0..<2 { if let job = pending.popFirst() { start(job) } }
            while let outcome = try await group.next() {
                switch outcome {
                case .policy(let set, let name, let results): policies[set, default: [:]][name] = results
                case .oracle(let set, let trace, let solution): solutions[set, default: [:]][trace] = solution
                }
                if let job = pending.popFirst() { start(job) }
            }
        }
        return try sets.indices.map { index in
            let set = sets[index]
            var memory = MMGCSmoothnessMemory(videos: videos.count)
            var bounds: [MMGCTraceResult] = []
            var replays: [MMGCTraceResult] = []
            for (number, trace) in set.traces.enumerated() {
                let solution = solutions[index]![number]!
                bounds.append(oracleResult(solution, videos: videos, trace: trace, user: user))
                var plan = MMGCOraclePlan(solution.downloads)
                replays.append(try MMGCRun.trace(&plan, videos: videos, user: user, trace: trace, memory: &memory))
            }
            let results = policies[index]!
            return MMGCSetReport(name: set.name, policyName: policy, policy: policy == "oracle" ? bounds : results[policy]!,
                                 noSave: results["no_save"]!, fixedPreload: results["fixed_preload"]!,
                                 oracle: bounds, oracleReplay: replays)
        }
    }

    /// The oracle's optimum as a trace result (it wastes only a scored chunk nobody plays, when
    /// fetching one pays).
    static func oracleResult(_ solution: MMGCOracle.Solution, videos: [MMGCVideo], trace: MMGCTrace, user: MMGCUser) -> MMGCTraceResult {
        let watched = user.watchMs.reduce(0, +)
        var waste = 0.0
        for download in solution.downloads where Double(download.chunk) * MMGCSession.chunkMs >= user.watchMs[download.video] {
            waste += Double(videos[download.video].sizes[download.level][download.chunk])
        }
        return MMGCTraceResult(trace: trace.name, score: solution.score, qoe: solution.qoe, bytes: solution.bytes,
                               challengeWastedBytes: waste, wastedBytes: waste,
                               downloadWatchRatio: Double(solution.downloads.count) * MMGCSession.chunkMs / watched,
                               qualityKbps: solution.qualityKbps, rebufferMs: solution.rebufferMs, changeKbps: solution.changeKbps,
                               downloads: solution.downloads.count, waits: 0, stuck: false)
    }
}
