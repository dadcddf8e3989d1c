/// The challenge's score (`run.py`'s `test`), term by term:
///
///     S = Σ quality − 1.85 × rebuffering − Σ bitrate changes − 0.5 × Mbit downloaded
///
/// with quality and changes in Mbit/s and rebuffering in seconds. Its rules, quirks included
/// (each changes results):
/// - Quality and changes are counted when a download is decided, from the state then and the
///   user's predetermined watch time: a chunk earns its level's bitrate (750/1200/1850 kbit/s)
///   when its index is at most `floor(watch / 1000)`; later chunks earn nothing and change
///   nothing, but their bytes count.
/// - A change is the difference from the video's previous chunk; a video's first chunk is
///   compared with the level recorded for the previous video's last scored chunk
///   (`last_chunk_bitrate`), none for the first video or when none is recorded.
/// - When the last scored chunk of a video is decided after the next video's first chunk, the
///   change added is the full bitrate of that first chunk (the challenge compares it with a
///   quality still at 0).
/// - `last_chunk_bitrate` is a global of `run.py`: kept across the traces of a set (a set is one
///   process), never reset between them (`MMGCSmoothnessMemory`).
/// - Rebuffering counts during waits as well as downloads. A run whose QoE falls below −10^4
///   stops and scores −10^9 (the challenge's guard against a stuck player).
package struct MMGCScorer: Sendable {
    /// The levels' bitrates in kbit/s (the score's, not the files': sizes come from the chunks).
    package static let bitratesKbps: [Double] = [750, 1200, 1850]
    package static let rebufferWeight = 1.85
    package static let bytesWeight = 0.5
    package static let minQoE = -1e4
    package static let stuckScore = -1e9

    /// The quality and change (kbit/s) the challenge counts for `action` in `session`'s state,
    /// updating `memory` as it does. Zero for a wait.
    package static func terms(_ action: MMGCAction, in session: MMGCSession,
                             memory: inout MMGCSmoothnessMemory) -> (quality: Double, change: Double) {
        guard case .download(let video, let level) = action else { return (0, 0) }
        let position = video - session.playing
        let queued = session.queue[position]
        let lastScored = Int((session.user.watchMs[video] / MMGCSession.chunkMs).rounded(.down))
        let chunk = queued.downloaded
        guard lastScored >= chunk else { return (0, 0) }
        var change = 0.0
        if chunk == lastScored {
            memory.levels[video] = level
            if position + 1 < session.queue.count, session.queue[position + 1].downloaded != 0 {
                change += abs(0 - bitratesKbps[session.queue[position + 1].levels[0]])
            }
        }
        let quality = bitratesKbps[level]
        if video == 0 && chunk == 0 {
            // The session's first chunk.
        } else if chunk == 0 {
            let previous = memory.levels[video - 1]
            if previous != -1 { change += abs(quality - bitratesKbps[previous]) }
        } else {
            change += abs(quality - bitratesKbps[queued.levels[chunk - 1]])
        }
        return (quality, change)
    }
}

/// `run.py`'s `last_chunk_bitrate`: the level recorded for each video's last scored chunk, -1
/// while none is. Kept across the traces of one set.
package struct MMGCSmoothnessMemory: Sendable, Equatable {
    package var levels: [Int]

    package init(videos: Int) {
        levels = Array(repeating: -1, count: videos)
    }
}

/// One policy on one trace.
package struct MMGCTraceResult: Sendable, Equatable, Codable {
    package var trace: String
    package var score: Double
    package var qoe: Double
    package var bytes: Double
    /// What the challenge reports as wasted bytes (its double count included).
    package var challengeWastedBytes: Double
    /// Bytes downloaded and never watched, each chunk once.
    package var wastedBytes: Double
    /// Media milliseconds downloaded over milliseconds watched.
    package var downloadWatchRatio: Double
    /// Σ quality, Σ rebuffering and Σ changes as the score counts them (kbit/s, ms, kbit/s).
    package var qualityKbps: Double
    package var rebufferMs: Double
    package var changeKbps: Double
    package var downloads: Int
    package var waits: Int
    /// The challenge's guard stopped the run (QoE below −10^4): the score is −10^9.
    package var stuck: Bool
}

/// A policy's averages over a set's traces (the challenge averages score, bytes, QoE, waste and
/// ratio over its 20 traces; the rest are averaged the same way).
package struct MMGCSummary: Sendable, Equatable, Codable {
    package var name: String
    package var score: Double
    package var qoe: Double
    /// Seconds of rebuffering per trace.
    package var rebufferS: Double
    /// Σ bitrate changes per trace, Mbit/s (the score's term).
    package var bitrateChanges: Double
    package var bytesDownloaded: Double
    /// Bytes downloaded and never watched (each chunk once).
    package var bytesWasted: Double
    package var downloadWatchRatio: Double

    package init(name: String, results: [MMGCTraceResult]) {
        self.name = name
        func mean(_ value: (MMGCTraceResult) -> Double) -> Double {
            guard !results.isEmpty else { return .nan }
            var sum = 0.0
            for result in results { sum += value(result) }
            return sum / Double(results.count)
        }
        score = mean(\.score)
        qoe = mean(\.qoe)
        rebufferS = mean { $0.rebufferMs / 1000 }
        bitrateChanges = mean { $0.changeKbps / 1000 }
        bytesDownloaded = mean(\.bytes)
        bytesWasted = mean(\.wastedBytes)
        downloadWatchRatio = mean(\.downloadWatchRatio)
    }
}
