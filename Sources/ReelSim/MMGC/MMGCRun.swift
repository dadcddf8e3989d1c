import ReelCore
import ReelFeed

/// Runs deciders through the challenge as `run.py` does: one trace at a time, each from a fresh
/// session and a fresh decider, the smoothness memory carried across the traces of a set.
package enum MMGCRun {
    /// Steps one trace may take before the run is called stuck (every step plays at least 1 ms or
    /// downloads a chunk, so a session that is not stuck ends long before).
    package static let maxSteps = 5_000_000

    /// One trace (`run.py`'s `test`).
    package static func trace<D: MMGCDecider>(_ decider: inout D, videos: [MMGCVideo], user: MMGCUser, trace: MMGCTrace,
                                             memory: inout MMGCSmoothnessMemory) throws -> MMGCTraceResult {
        var session = MMGCSession(videos: videos, user: user, trace: trace)
        var qoe = 0.0, bytes = 0.0, challengeWaste = 0.0, waste = 0.0
        var quality = 0.0, rebuffer = 0.0, change = 0.0
        var downloads = 0, waits = 0
        var last: MMGCStep?
        var stuck = false
        for _ in 0..<maxSteps {
            let action = try decider.decide(MMGCObservation(session, after: last), in: session)
            do {
                try session.check(action)
            } catch let error as ReelError {
                throw ReelError(.internalFailure, "on trace '\(trace.name)': \(error.message)")
            }
            let terms = MMGCScorer.terms(action, in: session, memory: &memory)
            let step = session.step(action)
            if case .download = action { downloads += 1 } else { waits += 1 }
            bytes += Double(step.chunkBytes)
            challengeWaste += Double(step.challengeWastedBytes)
            waste += Double(step.wastedBytes)
            quality += terms.quality
            rebuffer += step.rebufferMs
            change += terms.change
            qoe += MMGCScorer.stepQoE(quality: terms.quality, rebufferMs: step.rebufferMs, change: terms.change)
            last = step
            if qoe < MMGCScorer.minQoE {
                stuck = true
                break
            }
            if session.isFinished { break }
        }
        if !stuck && !session.isFinished {
            throw ReelError(.internalFailure, "on trace '\(trace.name)' the session did not end within \(maxSteps) steps")
        }
        let score = stuck ? MMGCScorer.stuckScore : MMGCScorer.score(qoe: qoe, bytes: bytes)
        return MMGCTraceResult(trace: trace.name, score: score, qoe: qoe, bytes: bytes, challengeWastedBytes: challengeWaste,
                               wastedBytes: waste, downloadWatchRatio: session.downloadedMs / session.watchedMs,
                               qualityKbps: quality, rebufferMs: rebuffer, changeKbps: change, downloads: downloads, waits: waits,
                               stuck: stuck)
    }

    /// A `DownloadPolicy` over every trace of `set`: a fresh policy (from `make`) per trace, the
    /// smoothness memory kept across them (`run.py` runs a set in one process).
    package static func set(_ set: MMGCTraceSet, videos: [MMGCVideo], user: MMGCUser,
                           policy make: () throws -> any DownloadPolicy) throws -> [MMGCTraceResult] {
        var memory = MMGCSmoothnessMemory(videos: videos.count)
        return try set.traces.map { trace in
            var driver = MMGCPolicyDriver(policy: try make())
            return try Self.trace(&driver, videos: videos, user: user, trace: trace, memory: &memory)
        }
    }
}

extension MMGCScorer {
    /// One step's QoE, in `run.py`'s order of operations.
    package static func stepQoE(quality: Double, rebufferMs: Double, change: Double) -> Double {
        quality / 1000 - rebufferWeight * rebufferMs / 1000 - change / 1000
    }

    /// The score of a trace: QoE less 0.5 per Mbit downloaded (`run.py`'s order of operations).
    package static func score(qoe: Double, bytes: Double) -> Double {
        qoe - bytesWeight * bytes * 8 / 1_000_000
    }
}
