import ReelCore
import ReelFeed
import ReelNet
import ReelManifest

/// Today's feed behaviour as a download policy ("reel"): what Reel's feed session, its players,
/// its preload targets, its prefetch gate and its adaptive rule together would fetch, under the
/// default configuration, as far as a world of one transfer at a time allows. A baseline for a
/// scheduler, not a tuned policy: every number is a Reel setting's default.
///
/// In order, at each decision:
/// 1. **The playing video** reads ahead as a player's demuxer does (`BufferPolicy`): it fetches
///    its next segment while reading and less than `playback.maxBufferMs` is buffered, then rests
///    until the buffer falls below `playback.minBufferMs`. The variant is the adaptive rule's
///    (`ABRPolicy` with `abr.*`), started from the variant of its last
///    preloaded segment (a player starts on a variant whose start is cached), else from the start
///    variant, and fed the meter's estimate (`device.bandwidthEstimateKbps` before one), the
///    request latency, the video's stalls and its last segment's own throughput.
/// 2. **Preload** (`PreloadPolicy`): the videos ahead within `preload.mediaScreens` screens (one
///    video per screen: the next is 0 screens away) get the segments covering their first
///    `preload.mediaMs`, nearest first, at the start variant (`ABRPolicy.startIndex`: what the
///    estimate affords for a segment of `abr.startSegmentMs`), fixed at a video's first preload.
///    The gate (`PlaybackYield`) lets only the next video (the urgent one) through while the
///    playing video holds less than `prefetch.minPlayingBufferMs`.
/// 3. Otherwise **wait**: until the playing video's buffer falls below the low watermark, and at
///    most `pollSeconds`. Reel reacts to a swipe when it comes; a policy in the challenge sees the
///    player only when it decides, so a waiting one looks again this often.
///
/// What the challenge's world cannot express: fetches in parallel (prefetch and playback share
/// one transfer at a time here, the playing video first), a mounted next player's first frame
/// (`playback.preparedBufferMs`), the player's rebuffering watermark before it resumes
/// (`playback.bufferWatermarkMs`: the challenge plays any media as soon as it arrives), cards
/// behind the scroll, and the estimate remembered across sessions (each trace starts from the
/// device's initial estimate).
package struct ReelFeedPolicy: DownloadPolicy {
    package struct Parameters: Sendable, Equatable {
        package var maxBuffer: Double
        package var minBuffer: Double
        package var preloadMedia: Double
        package var mediaScreens: Double
        package var minPlayingBuffer: Double
        package var initialBitsPerSecond: Int
        package var adaptive: ABRParameters
        package var pollSeconds = 0.1

        /// The parameters `config` describes (seconds here).
        package init(_ config: ReelConfig = ReelConfig()) {
            maxBuffer = Double(config.playback.maxBufferMs) / 1000
            minBuffer = Double(min(config.playback.minBufferMs, config.playback.maxBufferMs)) / 1000
            preloadMedia = Double(config.preload.mediaMs) / 1000
            mediaScreens = config.preload.mediaScreens
            minPlayingBuffer = Double(config.prefetch.minPlayingBufferMs) / 1000
            initialBitsPerSecond = config.device.bandwidthEstimateKbps * 1000
            adaptive = ABRParameters(config.abr)
        }
    }

    package let parameters: Parameters
    package var name: String { "reel" }
    /// The adaptive rule of each video that played, by id.
    private var rules: [String: ABRPolicy] = [:]
    /// Whether each playing video's demuxer reads (true) or rests (false).
    private var reading: [String: Bool] = [:]
    /// The variant a video's preload fetches, fixed at its first preload.
    private var startVariants: [String: Int] = [:]
    /// The last segment fetched for each video: its throughput (bits/s) and when it arrived.
    private var throughputs: [String: (bitsPerSecond: Int, at: Double)] = [:]
    private var latency = 0.0
    private var now = 0.0

    package init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    package mutating func downloaded(_ request: SegmentRequest, bytes: Int, seconds: Double) {
        let transfer = seconds - latency
        guard bytes > 0, transfer > 0 else { return }
        throughputs[request.video] = (Int((Double(bytes) * 8 / transfer).rounded()), now + seconds)
    }

    package mutating func decide(_ state: LinkState) -> DownloadDecision {
        now = state.now
        latency = state.latency
        guard let playing = state.videos.first(where: \.isPlaying) ?? state.videos.first else {
            return .wait(until: state.now + parameters.pollSeconds)
        }
        let estimate = Int(state.bandwidthBitsPerSecond?.rounded() ?? Double(parameters.initialBitsPerSecond))
        // 1. The playing video's read-ahead.
        let buffered = playing.buffered
        var isReading = reading[playing.id] ?? true
        if !playing.isComplete {
            if isReading && buffered >= parameters.maxBuffer { isReading = false }
            if !isReading && buffered < parameters.minBuffer { isReading = true }
            reading[playing.id] = isReading
            if isReading { return .fetch(SegmentRequest(video: playing.id, segment: playing.downloaded, variant: variant(playing, estimate, state))) }
        }
        // 2. Preload, through the gate.
        let urgentOnly = buffered < parameters.minPlayingBuffer
        for video in state.videos.filter({ $0.distance > playing.distance }).sorted(by: { $0.distance < $1.distance }) {
            let screens = Double(video.distance - playing.distance - 1)
            guard screens <= parameters.mediaScreens else { break }
            if urgentOnly && video.distance != playing.distance + 1 { break }
            guard !video.isComplete, video.downloaded < preloadSegments(video) else { continue }
            let start = startVariants[video.id] ?? startIndex(video, estimate, state)
            startVariants[video.id] = start
            return .fetch(SegmentRequest(video: video.id, segment: video.downloaded, variant: start))
        }
        // 3. Wait: until the read-ahead resumes, looking again every `pollSeconds`.
        var wake = parameters.pollSeconds
        if !playing.isComplete && !isReading { wake = min(wake, buffered - parameters.minBuffer + 0.001) }
        return .wait(until: state.now + max(0.001, wake))
    }

    /// The adaptive rule's variant for the playing video's next segment.
    private mutating func variant(_ video: VideoState, _ estimate: Int, _ state: LinkState) -> Int {
        let ladder = video.bitrates.map { ABRRung(bandwidth: $0) }
        var rule = rules[video.id] ?? ABRPolicy(
            ladder: ladder, constraints: constraints, parameters: parameters.adaptive,
            start: video.downloadedVariants.last ?? startVariants[video.id] ?? startIndex(video, estimate, state))
        let maxAge = parameters.adaptive.throughputMaxAge.seconds
        let recent = throughputs[video.id].flatMap { state.now - $0.at <= maxAge ? $0.bitsPerSecond : nil }
        let input = ABRInput(segment: video.downloaded, segmentDuration: .seconds(video.segmentDurations[video.downloaded]),
                             buffered: .seconds(video.buffered), stalls: video.stalls, estimate: estimate, lastThroughput: recent,
                             latency: .seconds(state.latency), now: .seconds(state.now))
        let choice = rule.decide(input).variant
        rules[video.id] = rule
        return choice
    }

    /// The variant a play of `video` starts on: what the estimate and latency afford for a
    /// segment of `abr.startSegmentMs` (`ABRPolicy.startIndex`).
    private func startIndex(_ video: VideoState, _ estimate: Int, _ state: LinkState) -> Int {
        ABRPolicy.startIndex(ladder: video.bitrates.map { ABRRung(bandwidth: $0) }, constraints: constraints,
                             parameters: parameters.adaptive, estimate: estimate, latency: .seconds(state.latency)) ?? 0
    }

    /// Every variant fits: the challenge's videos have no picture size.
    private var constraints: PlaybackConstraints {
        var constraints = PlaybackConstraints()
        constraints.adaptive = parameters.adaptive
        return constraints
    }

    /// Segments covering the first `preloadMedia` seconds of a video.
    private func preloadSegments(_ video: VideoState) -> Int {
        var covered = 0.0
        var count = 0
        while covered < parameters.preloadMedia && count < video.segmentDurations.count {
            covered += video.segmentDurations[count]
            count += 1
        }
        return count
    }
}
