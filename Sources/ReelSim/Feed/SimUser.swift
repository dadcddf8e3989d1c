import Foundation
import ReelCore
import ReelFeed

/// Who scrolls the simulated feed: it puts the inputs on the agenda (`FeedSimulation.schedule`)
/// and is asked to look again whenever it asked for a `.user` event.
package protocol SimulatedUser: AnyObject {
    /// The session starts: the first inputs, and when it ends.
    func begin(_ simulation: FeedSimulation)
    /// A `.user` event it asked for is due.
    func look(_ simulation: FeedSimulation)
}

/// A recorded scroll trace, replayed as `reel feed run` replays it: the launch window first when
/// there is one, each sample at its time (its scroll, then its tap), and the end after the
/// longest hold of a fast scroll.
package final class TraceUser: SimulatedUser {
    let trace: ScrollTrace
    let launchSeconds: Double

    package init(trace: ScrollTrace, launchSeconds: Double = 0) {
        self.trace = trace
        self.launchSeconds = launchSeconds
    }

    package func begin(_ simulation: FeedSimulation) {
        if launchSeconds > 0 { simulation.schedule(.launch, at: 0) }
        simulation.schedule(.show, at: launchSeconds)
        for sample in trace.samples {
            let time = launchSeconds + sample.time
            simulation.schedule(.scroll(y: sample.y, carousels: sample.x, line: sample.line), at: time)
            if let tap = sample.tap { simulation.schedule(.tap(card: tap, line: sample.line), at: time) }
        }
        let visibility = VisibilityParameters(config: simulation.config)
        simulation.endAt(launchSeconds + (trace.samples.last?.time ?? 0) + max(visibility.settle, visibility.maxDelay))
    }

    package func look(_ simulation: FeedSimulation) {}
}

/// A user who watches each video for a number of seconds of its content (stalls do not count)
/// drawn from how long people watch it, then swipes to the next video, one screen down, as on a
/// shorts feed; until it has watched `videos` videos or `seconds` have passed.
package final class RetentionUser: SimulatedUser {
    /// Seconds of the video at this URL (lasting `duration`) the user watches, for the `index`th
    /// video of the session.
    package typealias Watch = (_ video: URL, _ duration: Double, _ index: Int) -> Double

    let watch: Watch
    let videos: Int
    let seconds: Double
    /// How long a swipe's animation takes, and its samples per second.
    let swipeSeconds: Double
    let rate = 60.0
    private var widget = -1
    private var target: Double?
    private var watched = 0
    private var offset = 0.0
    private var swiping = false

    package init(videos: Int = .max, seconds: Double, swipeSeconds: Double = 0.3, watch: @escaping Watch) {
        self.watch = watch
        self.videos = videos
        self.seconds = seconds
        self.swipeSeconds = swipeSeconds
    }

    package func begin(_ simulation: FeedSimulation) {
        simulation.schedule(.show, at: 0)
        simulation.endAt(seconds)
        simulation.lookAgain(at: 0.1)
    }

    package func look(_ simulation: FeedSimulation) {
        defer { simulation.lookAgain(at: simulation.now + 0.1) }
        let layout = simulation.coordinator.controller.layout
        let model = simulation.coordinator.controller.model
        if swiping { return }
        if widget < 0 {
            guard let first = nextVideoWidget(after: -1, model: model, count: layout.count) else { return }
            settle(on: first, simulation)
            return
        }
        guard let target else { return }
        let card = model.items.indices.contains(widget) ? model.describe(CardRef(widget: widget, slot: 0)).cardID : ""
        let played = simulation.playedSeconds(card: card)
        guard played.seconds >= target - 1e-9 || played.ended else { return }
        watched += 1
        guard watched < videos, let next = nextVideoWidget(after: widget, model: model, count: layout.count) else {
            simulation.endAt(simulation.now)
            return
        }
        swipe(to: next, layout: layout, simulation)
    }

    /// The next widget whose first card shows a video.
    private func nextVideoWidget(after index: Int, model: FeedModel, count: Int) -> Int? {
        guard index + 1 < count else { return nil }
        return (index + 1..<count).first { model.video(of: CardRef(widget: $0, slot: 0)) != nil }
    }

    private func settle(on index: Int, _ simulation: FeedSimulation) {
        widget = index
        let model = simulation.coordinator.controller.model
        guard let video = model.video(of: CardRef(widget: index, slot: 0)),
              let url = URL(string: video.url, relativeTo: simulation.baseURL)?.absoluteURL else { return }
        let duration = simulation.models.media.streams[url.absoluteString]?.duration ?? 0
        target = watch(url, duration, watched)
    }

    /// Scrolls the feed so `index` is at the top, easing out over `swipeSeconds`.
    private func swipe(to index: Int, layout: FeedLayout, _ simulation: FeedSimulation) {
        let end = max(0, layout.frames[index].y - layout.metrics.widgetSpacing)
        let start = offset, begin = simulation.now
        let steps = max(1, Int((swipeSeconds * rate).rounded()))
        for step in 1...steps {
            let progress = Double(step) / Double(steps)
            let eased = 1 - (1 - progress) * (1 - progress)
            simulation.schedule(.scroll(y: start + (end - start) * eased, carousels: [:], line: 0), at: begin + swipeSeconds * progress)
        }
        offset = end
        swiping = true
        target = nil
        let landed = begin + swipeSeconds
        simulation.after(landed) { [weak self] simulation in
            self?.swiping = false
            self?.settle(on: index, simulation)
        }
    }
}
