import ReelFeed

/// The challenge's `fixed_preload` baseline (`quickstart/fix_preload.py`) as a download policy,
/// its quirks kept: the first chunk at level 0; then the playing video to its end; then, in
/// queue order, at most 4 chunks of each next video while the share of viewers still watching
/// at that chunk, over the share at its start, is above 0.65; the level from the *target*
/// video's buffer (2 above 2000 ms, 1 above 1000 ms, else 0); otherwise wait 500 ms.
package struct FixedPreloadPolicy: DownloadPolicy {
    package static let preloadChunks = 4
    package static let retentionThreshold = 0.65
    package static let lowBufferMs = 1000.0
    package static let highBufferMs = 2000.0
    package static let waitSeconds = 0.5

    package var name: String { "fixed_preload" }
    private var started = false

    package init() {}

    package mutating func decide(_ state: LinkState) -> DownloadDecision {
        guard let playing = state.videos.first else { return .wait(until: state.now + Self.waitSeconds) }
        guard started else {
            started = true
            return .fetch(playing.next(at: 0))
        }
        var target: VideoState?
        if playing.remainingSegments != 0 {
            target = playing
        } else {
            for video in state.videos.dropFirst().prefix(MMGCSession.queueLength - 1)
            where video.downloaded < Self.preloadChunks && video.remainingSegments != 0 {
                // P(watching that chunk | watching from where it starts); a queued video starts at 0.
                let retention = video.retention ?? []
                let start = Int(video.playhead)
                guard video.downloaded < retention.count, start < retention.count else { continue }
                if retention[video.downloaded] / retention[start] > Self.retentionThreshold {
                    target = video
                    break
                }
            }
        }
        guard let target else { return .wait(until: state.now + Self.waitSeconds) }
        let buffer = target.challengeBufferMs
        let level = buffer > Self.highBufferMs ? 2 : buffer > Self.lowBufferMs ? 1 : 0
        return .fetch(target.next(at: level))
    }
}
