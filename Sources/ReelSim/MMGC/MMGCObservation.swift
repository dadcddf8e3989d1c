import ReelCore

/// What the challenge hands a solution at each decision (`Algorithm.run`'s arguments): how the
/// last step went and the queue of players. It is also the state line of the JSON-lines policy
/// protocol (`reel bench mmgc-policy`), which the `bench/mmgc` adapter writes from `run.py`'s
/// own players, so a policy sees the same thing natively and under the organisers' scorer.
package struct MMGCObservation: Sendable, Codable, Equatable {
    /// The session's first decision (nothing happened yet).
    package var first: Bool
    /// Milliseconds the last step took (the rounded download delay, or the wait).
    package var delayMs: Double
    /// Milliseconds the player stalled in it.
    package var rebufferMs: Double
    /// Bytes of the chunk it downloaded (0 after a wait).
    package var chunkBytes: Int
    /// The index of the playing video (0 for the session's first).
    package var playing: Int
    /// The playing video first, then the next ones.
    package var queue: [Video]

    package struct Video: Sendable, Codable, Equatable {
        /// The video's index in the session.
        package var index: Int
        /// Chunks downloaded, from the first.
        package var downloaded: Int
        /// The level of each downloaded chunk.
        package var levels: [Int]
        package var playedMs: Double
        package var bufferMs: Double
        /// Bytes of each chunk at each level: `sizes[level][chunk]`.
        package var sizes: [[Int]]
        /// The retention file's rows (the share still watching at 0, 1, ... seconds, end marker
        /// included), as the challenge's player holds them.
        package var retention: [Double]

        package init(index: Int, downloaded: Int, levels: [Int], playedMs: Double, bufferMs: Double, sizes: [[Int]],
                    retention: [Double]) {
            self.index = index
            self.downloaded = downloaded
            self.levels = levels
            self.playedMs = playedMs
            self.bufferMs = bufferMs
            self.sizes = sizes
            self.retention = retention
        }

        package var chunkCount: Int { sizes.first?.count ?? 0 }
    }

    package init(first: Bool, delayMs: Double, rebufferMs: Double, chunkBytes: Int, playing: Int, queue: [Video]) {
        self.first = first
        self.delayMs = delayMs
        self.rebufferMs = rebufferMs
        self.chunkBytes = chunkBytes
        self.playing = playing
        self.queue = queue
    }

    /// The observation of `session` after `step` (nil: the first decision).
    package init(_ session: MMGCSession, after step: MMGCStep?) {
        self.init(first: step == nil, delayMs: step?.delayMs ?? 0, rebufferMs: step?.rebufferMs ?? 0,
                  chunkBytes: step?.chunkBytes ?? 0, playing: session.playing,
                  queue: session.queue.map {
                      Video(index: $0.index, downloaded: $0.downloaded, levels: $0.levels, playedMs: $0.playedMs,
                            bufferMs: $0.bufferMs, sizes: $0.video.sizes, retention: $0.video.retentionRows)
                  })
    }

    /// Checks what a protocol line may get wrong: a queue that does not start at the playing
    /// video or skips one, sizes that are not three equal rows of positive byte counts, counts
    /// that do not add up, a retention curve too short for the video.
    package func validate() throws {
        func fail(_ message: String) -> ReelError { ReelError(.invalidInput, message) }
        guard delayMs.isFinite, delayMs >= 0 else { throw fail("\"delayMs\" must be a number of at least 0, found \(delayMs)") }
        guard rebufferMs.isFinite, rebufferMs >= 0 else { throw fail("\"rebufferMs\" must be a number of at least 0, found \(rebufferMs)") }
        guard chunkBytes >= 0 else { throw fail("\"chunkBytes\" must be at least 0, found \(chunkBytes)") }
        guard !queue.isEmpty else { throw fail("\"queue\" is empty: it must hold the playing video first") }
        guard queue.count <= MMGCSession.queueLength * 4 else { throw fail("\"queue\" holds \(queue.count) videos, over the limit") }
        for (position, video) in queue.enumerated() {
            let name = "\"queue[\(position)]"
            guard video.index == playing + position else {
                throw fail("\(name).index\" is \(video.index); the queue must run \(playing), \(playing + 1), ... from \"playing\"")
            }
            guard video.sizes.count == MMGCDataset.levels else {
                throw fail("\(name).sizes\" has \(video.sizes.count) levels; the challenge has \(MMGCDataset.levels)")
            }
            let chunks = video.chunkCount
            guard chunks > 0, chunks <= MMGCLimits.maxChunks, video.sizes.allSatisfy({ $0.count == chunks }) else {
                throw fail("\(name).sizes\" must be \(MMGCDataset.levels) rows of the same number (1...\(MMGCLimits.maxChunks)) of chunks")
            }
            guard video.sizes.allSatisfy({ $0.allSatisfy { $0 > 0 } }) else { throw fail("\(name).sizes\" holds a size below 1 byte") }
            guard (0...chunks).contains(video.downloaded), video.levels.count == video.downloaded else {
                throw fail("\(name)\": \"downloaded\" is \(video.downloaded) with \(video.levels.count) levels, for \(chunks) chunks")
            }
            guard video.levels.allSatisfy({ (0..<MMGCDataset.levels).contains($0) }) else { throw fail("\(name).levels\" holds a level outside 0...2") }
            guard video.playedMs.isFinite, video.playedMs >= 0, video.bufferMs.isFinite, video.bufferMs >= 0 else {
                throw fail("\(name)\": \"playedMs\" and \"bufferMs\" must be numbers of at least 0")
            }
            guard video.retention.count >= chunks + 1, video.retention.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else {
                throw fail("\(name).retention\" must hold at least \(chunks + 1) shares in 0...1 (seconds 0...\(chunks))")
            }
        }
    }
}
