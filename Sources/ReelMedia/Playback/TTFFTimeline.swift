import ReelCore
import ReelNet

/// The instants one start went through, from the play request to the first frame. `breakdown`
/// turns them into `TTFFBreakdown` phases counting only time after the request: a player prepared
/// ahead (mounted) did its early phases before anyone asked it to play, and those cost the
/// viewer nothing.
struct TTFFTimeline: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// When the work began (resolving the input).
    var began: Instant
    /// When play was asked for; `reel play` asks at once.
    var requested: Instant?
    var manifestDone: Instant?
    var openDone: Instant?
    var probeDone: Instant?
    var codecOpenDone: Instant?
    var firstFrame: Instant?

    init(began: Instant = .now, requested: Instant? = nil) {
        self.began = began
        self.requested = requested
    }

    /// The phases, each clipped to the time after the request; zero until the first frame.
    var breakdown: TTFFBreakdown {
        var result = TTFFBreakdown()
        guard let firstFrame else { return result }
        let origin = max(requested ?? began, began)
        func span(_ from: Instant?, _ to: Instant?) -> Double {
            guard let from, let to else { return 0 }
            return (max(to, origin) - max(from, origin)).milliseconds
        }
        result.manifestMs = span(began, manifestDone)
        result.openMs = span(manifestDone, openDone)
        result.probeMs = span(openDone, probeDone)
        result.codecOpenMs = span(probeDone, codecOpenDone)
        result.firstFrameMs = span(codecOpenDone, firstFrame)
        result.totalMs = (max(firstFrame, origin) - origin).milliseconds
        return result
    }
}
