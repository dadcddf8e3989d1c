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
public struct MMGCScorer: Sendable {
    /// The levels' bitrates in kbit/s (the score's, not the files': sizes come from the chunks).
    public static let bitratesKbps: [Double] = [750, 1200, 1850]
    public static let rebufferWeight = 1.85
    public static let bytesWeight = 0.5
    public static let minQoE = -1e4
    public static let stuckScore = -1e9

    /// The quality and change (kbit/s) the challenge counts for `action` in `session`'s state,
    /// updating `memory` as it does. Zero for a wait.
    public static func terms(_ action: MMGCAction, in session: MMGCSession,
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
public struct MMGCSmoothnessMemory: Sendable, Equatable {
    public var levels: [Int]

    public init(videos: Int) {
        levels = Array(repeating: -1, count: videos)
    }
}

/// One policy on one trace.
public struct MMGCTraceResult: Sendable, Equatable, Codable {
    public var trace: String
    public var score: Double
    public var qoe: Double
    public var bytes: Double
    /// What the challenge reports as wasted bytes (its double count included).
    public var challengeWastedBytes: Double
    /// Bytes downloaded and never watched, each chunk once.
    public var wastedBytes: Double
    /// Media milliseconds downloaded over milliseconds watched.
    public var downloadWatchRatio: Double
    /// Σ quality, Σ rebuffering and Σ changes as the score counts them (kbit/s, ms, kbit/s).
    public var qualityKbps: Double
    public var rebufferMs: Double
    public var changeKbps: Double
    public var downloads: Int
    public var waits: Int
    /// The challenge's guard stopped the run (QoE below −10^4): the score is −10^9.
    public var stuck: Bool
}

/// A policy's averages over a set's traces (the challenge averages score, bytes, QoE, waste and
/// ratio over its 20 traces; the rest are averaged the same way).
public struct MMGCSummary: Sendable, Equatable, Codable {
    public var name: String
    public var score: Double
    public var qoe: Double
    /// Seconds of rebuffering per trace.
    public var rebufferS: Double
    /// Σ bitrate changes per trace, Mbit/s (the score's term).
    public var bitrateChanges: Double
    public var bytesDownloaded: Double
    /// Bytes downloaded and never watched (each chunk once).
    public var bytesWasted: Double
    public var downloadWatchRatio: Double

    public init(name: String, results: [MMGCTraceResult]) {
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
