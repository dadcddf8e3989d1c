/// What one event gives: the decision at once, and the actions to perform (persisting first).
public struct LaunchOutcome: Sendable, Hashable {
    public var decision: LaunchDecision
    public var actions: [LaunchAction]
}
