/// How long the loading animation plays: whole cycles (at least one, more while the app is not
/// ready), then a pause and a fade (`launch.loading.*`).
public struct LoadingAnimationPlan: Sendable, Hashable, Codable {
    public var cycleSeconds: Double
    public var postDelaySeconds: Double
    public var fadeSeconds: Double

    public init(cycleSeconds: Double = 1.0, postDelaySeconds: Double = 0.3, fadeSeconds: Double = 0.4) {
        self.cycleSeconds = max(0.001, cycleSeconds)
        self.postDelaySeconds = max(0, postDelaySeconds)
        self.fadeSeconds = max(0, fadeSeconds)
    }

    /// The shortest it plays: one cycle, the pause and the fade.
    public var minimumSeconds: Double { cycleSeconds + postDelaySeconds + fadeSeconds }

    /// Cycles played when the app is ready after `readySeconds`: the cycle in progress finishes.
    public func cycles(readyAfter readySeconds: Double) -> Int {
        max(1, Int((max(0, readySeconds) / cycleSeconds).rounded(.up)))
    }

    /// Seconds on screen when the app is ready after `readySeconds`.
    public func totalSeconds(readyAfter readySeconds: Double) -> Double {
        Double(cycles(readyAfter: readySeconds)) * cycleSeconds + postDelaySeconds + fadeSeconds
    }
}
