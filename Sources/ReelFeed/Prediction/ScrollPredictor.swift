import Foundation
import ReelCore

/// Predicts where a scroll comes to rest, from the positions it has passed: the velocity is the
/// slope of the last `window` seconds of samples, and a fling decays as a platform scroll view's
/// does, exponentially with time constant `decelerationSeconds` (UIScrollView's normal rate,
/// 0.998 per millisecond, is 0.5 s; Android's OverScroller is close to it), so it rests
/// `velocity × decelerationSeconds` further on. When the recent samples show the scroll
/// decaying, the time constant is measured from them instead (bounded), which also follows
/// flings that ease out faster than the model. The rest point is snapped to the nearest of the
/// given stops (widget tops) when one is within `snapDistance`. Pure: samples in, a prediction out.
public struct ScrollPredictor: Sendable {
    public struct Parameters: Sendable, Hashable {
        /// Seconds of samples the velocity is fitted over.
        public var window: Double = 0.1
        /// The model's time constant of a fling's exponential decay.
        public var decelerationSeconds: Double = 0.5
        /// Bounds of a time constant measured from the samples.
        public var minDecelerationSeconds: Double = 0.08
        public var maxDecelerationSeconds: Double = 1.5
        /// Faster than this (points per second), the scroll is a fling.
        public var flingVelocity: Double = 1500
        /// Slower than this, the scroll is about to stop.
        public var stoppingVelocity: Double = 250
        /// A rest point this close to a stop snaps to it.
        public var snapDistance: Double = 400

        public init() {}

        /// The parameters `preload.prediction.*` describe.
        public init(_ settings: PreloadSettings.Prediction) {
            window = Double(settings.windowMs) / 1000
            decelerationSeconds = Double(settings.decelerationMs) / 1000
            maxDecelerationSeconds = max(maxDecelerationSeconds, decelerationSeconds * 3)
            flingVelocity = settings.flingVelocity
            stoppingVelocity = settings.stoppingVelocity
            snapDistance = settings.snapDistance
        }
    }

    /// Where the scroll is going.
    public struct Prediction: Sendable, Equatable {
        /// The offset it rests at.
        public var landing: Double
        /// Points per second, signed (positive: down the feed).
        public var velocity: Double
        /// Seconds until it rests.
        public var secondsToRest: Double
        /// Faster than `flingVelocity`.
        public var isFling: Bool
        /// Slower than `stoppingVelocity` (or still).
        public var isStopping: Bool
        /// The samples show the scroll slowing down on its own (the finger has lifted), so the
        /// landing rests on a measured decay rather than on the model alone.
        public var isDecaying: Bool

        public init(landing: Double, velocity: Double, secondsToRest: Double, isFling: Bool, isStopping: Bool,
                    isDecaying: Bool) {
            self.landing = landing
            self.velocity = velocity
            self.secondsToRest = secondsToRest
            self.isFling = isFling
            self.isStopping = isStopping
            self.isDecaying = isDecaying
        }
    }

    public let parameters: Parameters
    private var samples: [(time: Double, offset: Double)] = []
    /// A time constant measured from the last samples, when they show a decay.
    private var measuredDeceleration: Double?
    private var previousVelocity: (time: Double, velocity: Double)?

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// The offset at `time` (seconds, never going back; a sample at the last one's time
    /// replaces it).
    public mutating func sample(_ offset: Double, at time: Double) {
        if let last = samples.last {
            if time < last.time { return }
            if time == last.time { samples.removeLast() }
        }
        samples.append((time, offset))
        let horizon = time - max(parameters.window, 0.05) * 3
        if let first = samples.firstIndex(where: { $0.time >= horizon }), first > 0 { samples.removeFirst(first) }
        // Velocities at the fits' mean times, compared half a window apart.
        guard let fit else { return }
        let now = fit.slope
        if let previous = previousVelocity, fit.time - previous.time >= parameters.window / 2,
           abs(previous.velocity) > parameters.stoppingVelocity, abs(now) < abs(previous.velocity),
           (now >= 0) == (previous.velocity >= 0), now != 0 {
            // v(t) = v0 e^(-t/τ): τ = Δt / ln(v0 / v).
            let tau = (fit.time - previous.time) / log(abs(previous.velocity) / abs(now))
            measuredDeceleration = min(max(tau, parameters.minDecelerationSeconds), parameters.maxDecelerationSeconds)
        } else if let previous = previousVelocity, abs(now) > abs(previous.velocity) * 1.1 || (now >= 0) != (previous.velocity >= 0) {
            measuredDeceleration = nil  // speeding up again, or turned round: a new fling
        }
        if previousVelocity.map({ fit.time - $0.time >= parameters.window / 2 }) ?? true {
            previousVelocity = (fit.time, now)
        }
    }

    /// The velocity at the last sample: the least-squares slope of the samples within `window`
    /// of it, which is the velocity at their mean time; a decaying scroll has slowed since, by
    /// `e^(-Δt/τ)`.
    public var velocity: Double {
        guard let last = samples.last, let fit = fit else { return 0 }
        guard let tau = measuredDeceleration else { return fit.slope }
        return fit.slope * exp(-(last.time - fit.time) / tau)
    }

    /// The least-squares slope of the samples within `window` of the last one, and their mean
    /// time (where the slope is the velocity).
    private var fit: (slope: Double, time: Double)? {
        guard let last = samples.last else { return nil }
        let recent = samples.filter { $0.time >= last.time - parameters.window }
        guard recent.count >= 2 else { return nil }
        let n = Double(recent.count)
        let meanT = recent.reduce(0) { $0 + $1.time } / n, meanY = recent.reduce(0) { $0 + $1.offset } / n
        var numerator = 0.0, denominator = 0.0
        for sample in recent {
            numerator += (sample.time - meanT) * (sample.offset - meanY)
            denominator += (sample.time - meanT) * (sample.time - meanT)
        }
        return denominator > 0 ? (numerator / denominator, meanT) : nil
    }

    /// The prediction from the samples so far, the rest point within `0...maxOffset` and snapped
    /// to the nearest of `stops` within `snapDistance`; nil before any sample. At `now`, a
    /// scroll without samples for over two windows has stopped where it was.
    public func predict(maxOffset: Double, stops: [Double] = [], now: Double? = nil) -> Prediction? {
        guard let last = samples.last else { return nil }
        if let now, now - last.time > 2 * max(parameters.window, 0.05) {
            let offset = min(max(0, last.offset), max(0, maxOffset))
            return Prediction(landing: offset, velocity: 0, secondsToRest: 0, isFling: false, isStopping: true, isDecaying: false)
        }
        let v = velocity
        let tau = measuredDeceleration ?? parameters.decelerationSeconds
        var landing = min(max(0, last.offset + v * tau), max(0, maxOffset))
        if let nearest = Self.nearest(to: landing, in: stops), abs(nearest - landing) <= parameters.snapDistance {
            landing = min(max(0, nearest), max(0, maxOffset))
        }
        // Time to fall from |v| to the stopping speed, exponentially.
        let speed = abs(v)
        let seconds = speed > parameters.stoppingVelocity ? tau * log(speed / parameters.stoppingVelocity) : 0
        return Prediction(landing: landing, velocity: v, secondsToRest: seconds, isFling: speed > parameters.flingVelocity,
                          isStopping: speed <= parameters.stoppingVelocity, isDecaying: measuredDeceleration != nil)
    }

    /// The value of sorted `values` nearest to `target`.
    static func nearest(to target: Double, in values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        var low = 0, high = values.count - 1
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < target { low = middle + 1 } else { high = middle }
        }
        let candidates = [values[low], low > 0 ? values[low - 1] : values[low]]
        return candidates.min { abs($0 - target) < abs($1 - target) }
    }
}
