/// The splash that would show at a moment, or why none would, with a line for people.
public struct SplashChoice: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        case show(SplashEntry)
        case none(LaunchReason)
    }

    public var outcome: Outcome
    public var detail: String

    /// `eligible` for a splash, else why there is none.
    public var reason: LaunchReason {
        switch outcome {
        case .show: .eligible
        case .none(let reason): reason
        }
    }
}
