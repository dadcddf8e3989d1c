import ReelCore
/// How well `ScrollPredictor` foresees where a trace's flings come to rest, and `CarouselPaging`
/// where its swipes do: the trace's samples replayed through them as the feed session does, each
/// prediction compared with where the motion really ended. What matters for preloading is the
/// lead: how long before the scroll rested its landing was known to within half a screen.
public struct LandingAccuracy: Sendable, Equatable {
    /// One fling: when it was first predicted as one, where it rested, and how the predictions went.
    public struct Fling: Sendable, Equatable {
        /// Trace seconds of the first sample predicted as a fling, and of the rest.
        public var start: Double
        public var rest: Double
        /// Where it rested (top of the viewport) and where it started.
        public var landing: Double
        public var from: Double
        /// Predicted minus real landing, in screens, at the first prediction and 100, 250 and
        /// 500 ms later (nil once the fling had rested).
        public var errors: [Double?]
        /// Seconds before the rest from which every prediction was within half a screen; 0 when
        /// none was.
        public var lead: Double
    }

    /// Offsets after the first prediction at which `Fling.errors` are taken, seconds.
    public static let checkpoints = [0.0, 0.1, 0.25, 0.5]

    public var flings: [Fling] = []
    /// Carousel swipes, and those whose first prediction named the card they rested on.
    public var swipes = 0
    public var swipesPredicted = 0

    /// Replays `trace` over `layout` (for the stops a landing snaps to and the carousels' rows).
    public init(trace: ScrollTrace, layout: FeedLayout, model: FeedModel, parameters: ScrollPredictor.Parameters) {
        let height = layout.viewport.height
        guard height > 0 else { return }
        let maxOffset = max(0, layout.contentHeight - height)
        let stops = layout.frames.map { max(0, $0.y - layout.metrics.widgetSpacing) }
        var predictor = ScrollPredictor(parameters: parameters)
        var open: (start: Double, from: Double, predictions: [(time: Double, landing: Double)])?
        let samples = trace.samples
        for (index, sample) in samples.enumerated() {
            predictor.sample(sample.y, at: sample.time)
            guard let prediction = predictor.predict(maxOffset: maxOffset, stops: stops) else { continue }
            if prediction.isFling {
                if open == nil { open = (sample.time, sample.y, []) }
                open?.predictions.append((sample.time, prediction.landing))
            }
            // The motion ends where the next sample is a rest (a gap or no movement) or the trace ends.
            let next = index + 1 < samples.count ? samples[index + 1] : nil
            let resting = next.map { $0.time - sample.time > 0.2 || abs($0.y - sample.y) < 0.5 } ?? true
            if resting, let fling = open {
                flings.append(Self.fling(fling, rest: sample.time, landing: sample.y, height: height))
                open = nil
            }
        }
        measureSwipes(trace, layout: layout, model: model, parameters: parameters)
    }

    private static func fling(_ fling: (start: Double, from: Double, predictions: [(time: Double, landing: Double)]),
                              rest: Double, landing: Double, height: Double) -> Fling {
        let errors: [Double?] = checkpoints.map { offset in
            let at = fling.start + offset
            guard at <= rest, let last = fling.predictions.last(where: { $0.time <= at + 1e-9 }) else { return nil }
            return (last.landing - landing) / height
        }
        // The earliest prediction from which all later ones stay within half a screen.
        var since = rest
        for prediction in fling.predictions.reversed() {
            guard abs(prediction.landing - landing) <= height / 2 else { break }
            since = prediction.time
        }
        return Fling(start: fling.start, rest: rest, landing: landing, from: fling.from, errors: errors, lead: max(0, rest - since))
    }

    /// Each swipe (a run of one carousel's offsets moving): the paging landing predicted from
    /// its first two samples against where it rested.
    private mutating func measureSwipes(_ trace: ScrollTrace, layout: FeedLayout, model: FeedModel,
                                        parameters: ScrollPredictor.Parameters) {
        let pitch = layout.metrics.carouselCardWidth + layout.metrics.carouselCardSpacing
        var last: [String: (time: Double, x: Double)] = [:]
        var swipe: [String: (first: Double?, predicted: Double?, last: Double)] = [:]
        func close(_ id: String) {
            guard let open = swipe.removeValue(forKey: id), let predicted = open.predicted else { return }
            swipes += 1
            if abs(predicted - open.last) < pitch / 2 { swipesPredicted += 1 }
        }
        for sample in trace.samples {
            for (id, x) in sample.x.sorted(by: { $0.key < $1.key }) {
                guard let widget = model.index(ofWidget: id), layout.types.indices.contains(widget) else { continue }
                let maxOffset = layout.maxCarouselOffset(widget: widget)
                if let previous = last[id], sample.time - previous.time <= 0.2 {
                    if swipe[id]?.predicted == nil, sample.time > previous.time {
                        let velocity = (x - previous.x) / (sample.time - previous.time)
                        swipe[id, default: (nil, nil, x)].predicted = CarouselPaging.landing(
                            offset: x, velocity: velocity, pitch: pitch, maxOffset: maxOffset, threshold: parameters.stoppingVelocity)
                    }
                    swipe[id, default: (nil, nil, x)].last = x
                } else {
                    close(id)
                    swipe[id] = (first: x, predicted: nil, last: x)
                }
                last[id] = (sample.time, x)
            }
        }
        for id in swipe.keys.sorted() { close(id) }
    }

    // MARK: - Figures

    /// The median and 90th percentile of the absolute errors at checkpoint `index`, in screens.
    public func error(at index: Int) -> (p50: Double, p90: Double, count: Int)? {
        let values = Distribution(flings.compactMap { $0.errors[index] }.map(abs))
        guard let p50 = values.value(atPercentile: 50), let p90 = values.value(atPercentile: 90) else { return nil }
        return (p50, p90, values.count)
    }

    /// The median and 10th percentile of the leads, seconds.
    public var lead: (p50: Double, p10: Double)? {
        let values = Distribution(flings.map(\.lead))
        guard let p50 = values.value(atPercentile: 50), let p10 = values.value(atPercentile: 10) else { return nil }
        return (p50, p10)
    }
}
