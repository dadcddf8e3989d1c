import ReelCore
import ReelFeed
/// Replays a scroll trace through a `FeedController` against the mock `FeedAPI`, in trace time:
/// the first page is requested at t = 0, each page arrives `pagination.latencyMs` after its
/// request, held transitions are released at their deadlines, and the replay ends once held
/// transitions after the last sample have been released.
package struct FeedReplay: Sendable {
    /// Events in time order, warnings for people, and the controller's final state.
    package struct Result: Sendable {
        package var events: [FeedEvent]
        package var warnings: [String]
        package var controller: FeedController
    }

    package static func run(trace: ScrollTrace, api: FeedAPI, config: ReelConfig, screen: Size? = nil) -> Result {
        var replay = FeedReplay(api: api, controller: FeedController(config: config, screen: screen))
        replay.handle(replay.controller.start(at: 0), at: 0)
        for sample in trace.samples {
            replay.advance(to: sample.time)
            replay.handle(replay.controller.scroll(sample), at: sample.time)
        }
        let parameters = replay.controller.visibility.parameters
        let end = (trace.samples.last?.time ?? 0) + max(parameters.settle, parameters.maxDelay)
        replay.advance(to: end)
        return Result(events: replay.events, warnings: replay.warnings, controller: replay.controller)
    }

    private let api: FeedAPI
    private let latency: Double
    private var controller: FeedController
    private var pending: (time: Double, page: FeedPage)?
    private var events: [FeedEvent] = []
    private var warnings: [String] = []

    private init(api: FeedAPI, controller: FeedController) {
        self.api = api
        self.latency = api.latency.seconds
        self.controller = controller
    }

    private mutating func handle(_ output: FeedOutput, at time: Double) {
        events += output.events
        warnings += output.warnings
        if let cursor = output.pageRequest {
            pending = (time + latency, api.page(cursor))
        }
    }

    /// Delivers pages and releases held transitions due up to `time`, in time order.
    private mutating func advance(to time: Double) {
        var lastDeadline = -Double.infinity
        while true {
            let deadline = controller.nextDeadline
            if let arrival = pending, arrival.time <= time, deadline.map({ arrival.time <= $0 }) ?? true {
                pending = nil
                handle(controller.receive(arrival.page, at: arrival.time), at: arrival.time)
            } else if let deadline, deadline <= time, deadline > lastDeadline {
                lastDeadline = deadline
                handle(controller.tick(at: deadline), at: deadline)
            } else {
                return
            }
        }
    }
}
