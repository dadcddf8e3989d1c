import ReelCore

/// What a policy asks the challenge's world to do next: fetch the next chunk of a queued video
/// at a level, or let the player play for a while.
package enum MMGCAction: Sendable, Hashable {
    /// `video` is the session's index of the video (0 for the first), `level` 0...2.
    case download(video: Int, level: Int)
    /// Play for this many milliseconds (the challenge truncates to whole ones).
    case sleep(ms: Double)
}

/// What one step did (`buffer_management`'s return values).
package struct MMGCStep: Sendable, Equatable {
    /// Milliseconds the step took: the rounded download delay, or the sleep.
    package var delayMs: Double
    /// Milliseconds the player stalled during it.
    package var rebufferMs: Double
    /// Bytes of the chunk downloaded (0 for a sleep).
    package var chunkBytes: Int
    package var endOfVideo: Bool
    /// The index of the video playing after the step (the video count once the user has left).
    package var playing: Int
    /// Bytes the challenge counts as wasted in the step (including its double count of a chunk
    /// that arrives after its video was swiped away).
    package var challengeWastedBytes: Int
    /// Bytes downloaded but never played that the step revealed, each chunk counted once.
    package var wastedBytes: Int

    package init(delayMs: Double, rebufferMs: Double, chunkBytes: Int, endOfVideo: Bool, playing: Int, challengeWastedBytes: Int,
                wastedBytes: Int) {
        self.delayMs = delayMs
        self.rebufferMs = rebufferMs
        self.chunkBytes = chunkBytes
        self.endOfVideo = endOfVideo
        self.playing = playing
        self.challengeWastedBytes = challengeWastedBytes
        self.wastedBytes = wastedBytes
    }
}

/// One video in the queue, as the challenge's `Player` holds it.
package struct MMGCQueuedVideo: Sendable, Equatable {
    /// The video's index in the session (0 for the first).
    package var index: Int
    package var video: MMGCVideo
    /// Chunks downloaded (always the first ones, in order).
    package var downloaded = 0
    /// The level of each downloaded chunk.
    package var levels: [Int] = []
    /// Milliseconds of it played.
    package var playedMs = 0.0
    /// Milliseconds downloaded and not yet played.
    package var bufferMs = 0.0
    /// Bytes downloaded of it.
    package var downloadedBytes = 0

    package init(index: Int, video: MMGCVideo) {
        self.index = index
        self.video = video
    }

    package var remainingChunks: Int { video.chunkCount - downloaded }
}

/// The challenge's world for one trace (`controller.Environment`): a queue of up to five videos
/// (the playing one and the next four), the user who watches each for a predetermined time, the
/// link, and the play loop that runs while a chunk downloads or the policy waits.
///
/// Assumptions, the challenge's own:
/// - A chunk is playable only once its step ends: media arriving during a download cannot
///   prevent a stall in that download.
/// - Playing drains the playing video's buffer at 1x. When the buffer runs dry the rest of the
///   step is a stall, even if later videos hold media. Startup is not special: the first chunk's
///   whole download counts as stall, for every video that was not preloaded.
/// - The user swipes the moment the watch time is reached (stalls do not count towards it); the
///   rest of that video's buffer is dropped and play goes on into the next video within the step.
/// - The queue holds `queueLength` videos: a swipe drops the head and appends the next video.
/// - Chunks at or past `ceil(watch / 1000)` count as wasted; so does a chunk that arrives after
///   its video was swiped away (which the challenge counts twice: see `MMGCStep`).
package struct MMGCSession: Sendable {
    package static let queueLength = 5
    package static let chunkMs = 1000.0

    package let videos: [MMGCVideo]
    package let user: MMGCUser
    package private(set) var link: MMGCLink
    package private(set) var queue: [MMGCQueuedVideo] = []
    /// The index of the playing video; `videos.count` once the user has left.
    package private(set) var playing = 0
    /// Videos that have entered the queue.
    private var entered = 0
    /// Milliseconds of media downloaded (1000 a chunk) and watched (the watch times of the
    /// videos that entered the queue): the challenge's download/watch ratio.
    package private(set) var downloadedMs = 0.0
    package private(set) var watchedMs = 0.0

    package init(videos: [MMGCVideo], user: MMGCUser, trace: MMGCTrace) {
        precondition(!videos.isEmpty && user.watchMs.count == videos.count)
        self.videos = videos
        self.user = user
        link = MMGCLink(trace: trace)
        while queue.count < Self.queueLength && entered < videos.count { enter() }
    }

    package var isFinished: Bool { playing >= videos.count }

    /// The watch time of the video at queue position `position`.
    package func watchMs(at position: Int) -> Double { user.watchMs[queue[position].index] }

    private mutating func enter() {
        queue.append(MMGCQueuedVideo(index: entered, video: videos[entered]))
        watchedMs += user.watchMs[entered]
        entered += 1
    }

    /// Checks `action` against the queue: a download must name a queued video that has a chunk
    /// left and a level the video has.
    package func check(_ action: MMGCAction) throws {
        guard case .download(let video, let level) = action else { return }
        let position = video - playing
        guard queue.indices.contains(position) else {
            throw ReelError(.invalidInput, "video \(video) is not in the queue (videos \(playing)...\(playing + queue.count - 1))")
        }
        guard (0..<queue[position].video.sizes.count).contains(level) else {
            throw ReelError(.invalidInput, "level \(level) does not exist (0...\(queue[position].video.sizes.count - 1))")
        }
        guard queue[position].remainingChunks > 0 else {
            throw ReelError(.invalidInput, "video \(video) is completely downloaded; it has no chunk left")
        }
    }

    /// Performs one step (`buffer_management`); `action` must pass `check`.
    package mutating func step(_ action: MMGCAction) -> MMGCStep {
        switch action {
        case .sleep(let ms):
            let delay = ms.rounded(.towardZero)
            let (buffer, waste) = play(delay)
            let end = isFinished || queue[0].remainingChunks == 0
            return MMGCStep(delayMs: delay, rebufferMs: buffer < 0 ? -buffer : 0, chunkBytes: 0, endOfVideo: end, playing: playing,
                            challengeWastedBytes: waste, wastedBytes: waste)
        case .download(let video, let level):
            var position = video - playing
            let chunk = queue[position].downloaded
            let bytes = queue[position].video.sizes[level][chunk]
            queue[position].levels.append(level)
            queue[position].downloadedBytes += bytes
            let delay = link.transfer(bytes)
            let (buffer, waste) = play(delay)
            downloadedMs += Self.chunkMs
            position = video - playing
            var end: Bool
            var challengeWaste = waste
            if position < 0 {
                // Swiped away during the download: the chunk lies past the swipe point (the user
                // could not have watched that far without it), so the swipe's sum already holds
                // it (its level was recorded first). The challenge adds it a second time.
                challengeWaste += bytes
                end = true
            } else if isFinished {
                end = true
            } else {
                queue[position].bufferMs += Self.chunkMs
                queue[position].downloaded += 1
                end = queue[position].downloaded >= queue[position].video.chunkCount
            }
            return MMGCStep(delayMs: delay, rebufferMs: buffer < 0 ? -buffer : 0, chunkBytes: bytes, endOfVideo: end, playing: playing,
                            challengeWastedBytes: challengeWaste, wastedBytes: waste)
        }
    }

    /// Plays for `ms` (`play_videos`): returns the buffer left (negative: the stall's length) and
    /// the bytes wasted by swipes in it.
    private mutating func play(_ ms: Double) -> (buffer: Double, wasted: Int) {
        var time = ms
        var wasted = 0
        var buffer = 0.0
        while buffer >= 0 && time > 0 {
            let before = queue[0].playedMs
            let remaining = user.watchMs[queue[0].index] - before
            let most = min(time, remaining)
            buffer = queue[0].bufferMs - most
            queue[0].playedMs += min(queue[0].bufferMs, most)
            queue[0].bufferMs = max(queue[0].bufferMs - most, 0)
            let played = queue[0].playedMs - before
            time -= played
            if played == remaining {
                wasted += Self.waste(queue[0], watchMs: user.watchMs[queue[0].index])
                queue.removeFirst()
                if entered < videos.count { enter() }
                playing += 1
            }
            if isFinished { break }
        }
        if buffer < 0 { buffer = -time }
        return (buffer, wasted)
    }

    /// Bytes of the chunks of `video` at or past the swipe point (`Player.bandwidth_waste`).
    static func waste(_ video: MMGCQueuedVideo, watchMs: Double) -> Int {
        let first = Int((watchMs / chunkMs).rounded(.up))
        guard first < video.levels.count else { return 0 }
        return (first..<video.levels.count).reduce(0) { $0 + video.video.sizes[video.levels[$1]][$1] }
    }
}
