import Foundation
import ReelCore

/// A fling as a phone's scroll view moves it once the finger lifts: the content leaves at the
/// release velocity and decays exponentially, `y(t) = y0 + v0 τ (1 - e^(-t/τ))`, coming to rest
/// `v0 τ` further on. The trace generator's flings and the viewer's drag-and-release share it
/// (docs/feed-session.md, "Traces").
public struct Fling: Sendable, Equatable {
    /// The constants of the scroll physics.
    public enum Physics {
        /// UIScrollView's normal deceleration, 0.998 per millisecond, is a time constant of 0.4995 s.
        public static let decelerationSeconds = 0.5
        /// The fastest the content moves when the finger lifts, points per second (Android's
        /// default maximum fling velocity is 8000 dp/s).
        public static let maxFlingVelocity = 8000.0
        /// The content counts as at rest below this speed (the rest is under 10 points).
        public static let restVelocity = 20.0
        /// A user flings again once the previous fling has slowed to this speed.
        public static let reflingVelocity = 1500.0
        /// The finger's drag before it lifts, seconds.
        public static let dragSeconds = 0.1
        /// Scrolls longer than this many screens are flings.
        public static let flingScreens = 1.0
    }

    /// Where the content was when the finger lifted.
    public var start: Double
    /// Signed points per second when the finger lifted.
    public var velocity: Double

    /// A fling from `start` at `velocity` (signed; not clamped: see `released(at:velocity:)`).
    public init(from start: Double, velocity: Double) {
        self.start = start
        self.velocity = velocity
    }

    /// A fling from `start` at `velocity` clamped to `Physics.maxFlingVelocity` either way.
    public static func released(at start: Double, velocity: Double) -> Fling {
        Fling(from: start, velocity: min(max(velocity, -Physics.maxFlingVelocity), Physics.maxFlingVelocity))
    }

    /// The offset `seconds` after the release.
    public func offset(after seconds: Double) -> Double {
        start + velocity * Physics.decelerationSeconds * (1 - exp(-seconds / Physics.decelerationSeconds))
    }

    /// The signed speed `seconds` after the release.
    public func velocity(after seconds: Double) -> Double {
        velocity * exp(-seconds / Physics.decelerationSeconds)
    }

    /// Where it comes to rest.
    public var rest: Double { start + velocity * Physics.decelerationSeconds }

    /// Whether it has slowed below `Physics.restVelocity` `seconds` after the release.
    public func isResting(after seconds: Double) -> Bool {
        abs(velocity(after: seconds)) < Physics.restVelocity
    }
}
