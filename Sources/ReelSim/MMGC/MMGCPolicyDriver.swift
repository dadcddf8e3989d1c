import ReelCore
import ReelFeed
import ReelNet

/// Anything that answers the challenge's decisions: a `DownloadPolicy` through
/// `MMGCPolicyDriver`, or the oracle's plan.
package protocol MMGCDecider {
    mutating func decide(_ observation: MMGCObservation, in session: MMGCSession?) throws -> MMGCAction
}

/// Stands between the challenge and a `DownloadPolicy`, as the engine stands between the network
/// and the feed's policy: it turns each observation into a `LinkState` and the policy's answer
/// into the challenge's `(video, level, sleep)`.
///
/// - The clock is the sum of the steps' delays (the challenge's time as the player lives it).
/// - The bandwidth estimate is Reel's meter (`BandwidthEstimator`) fed with every chunk's bytes
///   over its transfer time (the delay less the 80 ms request cost, which is the state's
///   `latency`); nil until the meter has measured enough.
/// - Videos are named by their index in the session. Each is reached for sure (the challenge's
///   user watches every video), its retention curve is its file's, its segments last 1 s, its
///   variants are the challenge's three bitrates, and its stalls count the steps in which it ran
///   dry after it had started playing.
/// - After a fetch, the policy hears `downloaded(_:bytes:seconds:)` with the step's delay.
/// - A wait becomes a sleep of whole milliseconds, at least 1 (a zero sleep is a download in the
///   challenge) and at most `maxWaitMs`.
/// - A fetch must name a queued video's next chunk (the challenge downloads each video's chunks
///   in order) at a level it has; anything else is the policy's error.
package struct MMGCPolicyDriver: MMGCDecider, Sendable {
    package static let maxWaitMs = 10_000.0

    package private(set) var policy: any DownloadPolicy
    package private(set) var meter: BandwidthEstimator
    /// Seconds since the session began.
    package private(set) var now = 0.0
    private var pending: SegmentRequest?
    private var stalls: [Int: Int] = [:]
    private var templates: [Int: VideoState] = [:]

    /// A driver for `policy` whose meter is `abr.meter.*`'s (its estimate counts once measured).
    package init(policy: any DownloadPolicy, meter: BandwidthEstimator.Parameters = .init()) {
        self.policy = policy
        self.meter = BandwidthEstimator(initialBitsPerSecond: 0, parameters: meter)
    }

    package mutating func decide(_ observation: MMGCObservation, in session: MMGCSession? = nil) throws -> MMGCAction {
        if !observation.first {
            now += observation.delayMs / 1000
            if let pending {
                policy.downloaded(pending, bytes: observation.chunkBytes, seconds: observation.delayMs / 1000)
                let transfer = (observation.delayMs - MMGCLink.requestMs) / 1000
                if observation.chunkBytes > 0, transfer > 0 {
                    meter.add(bytes: Int64(observation.chunkBytes), elapsed: .nanoseconds(Int64((transfer * 1e9).rounded())))
                }
            }
            if observation.rebufferMs > 0, let head = observation.queue.first, head.playedMs > 0 {
                stalls[head.index, default: 0] += 1
            }
        }
        pending = nil
        let state = linkState(observation)
        switch policy.decide(state) {
        case .fetch(let request):
            let action = try self.action(for: request, observation)
            pending = request
            return action
        case .fetchThumbnail:
            // The challenge has no thumbnails and the state shows none.
            return .sleep(ms: Self.maxWaitMs)
        case .wait(let until):
            let wanted = ((until - now) * 1000).rounded()
            return .sleep(ms: wanted.isFinite ? min(max(1, wanted), Self.maxWaitMs) : Self.maxWaitMs)
        }
    }

    /// The state a policy sees for `observation`.
    package mutating func linkState(_ observation: MMGCObservation) -> LinkState {
        let videos = observation.queue.enumerated().map { position, video in
            var state = template(video)
            state.distance = position
            state.isPlaying = position == 0
            state.playhead = video.playedMs / 1000
            state.downloaded = video.downloaded
            state.downloadedVariants = video.levels
            state.stalls = stalls[video.index] ?? 0
            return state
        }
        return LinkState(now: now, bandwidthBitsPerSecond: meter.measuredBitsPerSecond.map(Double.init), latency: MMGCLink.requestMs / 1000, videos: videos)
    }

    /// What does not change about a video while it is queued.
    private mutating func template(_ video: MMGCObservation.Video) -> VideoState {
        if let known = templates[video.index], known.sizes == video.sizes { return known }
        let chunks = video.chunkCount
        let state = VideoState(id: String(video.index), distance: 0, isPlaying: false, playhead: 0, downloaded: 0, downloadedVariants: [],
                               segmentDurations: Array(repeating: MMGCSession.chunkMs / 1000, count: chunks),
                               bitrates: MMGCScorer.bitratesKbps.map { Int($0) * 1000 }, sizes: video.sizes,
                               retention: Array(video.retention.prefix(chunks + 1)), reachProbability: 1)
        templates[video.index] = state
        return state
    }

    private func action(for request: SegmentRequest, _ observation: MMGCObservation) throws -> MMGCAction {
        let name = "policy '\(policy.name)'"
        guard let index = Int(request.video), let video = observation.queue.first(where: { $0.index == index }) else {
            throw ReelError(.internalFailure, "\(name) asked for video '\(request.video)', which is not in the queue (\(observation.playing)...\(observation.playing + observation.queue.count - 1))")
        }
        guard video.downloaded < video.chunkCount else {
            throw ReelError(.internalFailure, "\(name) asked for \(request), but video \(index) is completely downloaded")
        }
        guard request.segment == video.downloaded else {
            throw ReelError(.internalFailure, "\(name) asked for \(request); the challenge downloads a video's chunks in order, the next of video \(index) is \(video.downloaded)")
        }
        guard (0..<video.sizes.count).contains(request.variant) else {
            throw ReelError(.internalFailure, "\(name) asked for \(request): variant \(request.variant) does not exist (0...\(video.sizes.count - 1))")
        }
        return .download(video: index, level: request.variant)
    }
}
