import ReelCore
import Foundation

/// Where the app stands in its life, as the launch policy last saw it: persisted after every
/// event, so the next process knows how long it was away and whether it crashed.
public struct LaunchLifecycle: Sendable, Hashable {
    /// Launches so far; 0 before the first.
    public var launches = 0
    /// The last event's time; nil before the first (a first launch).
    public var lastEventAt: Date?
    /// The last launch or foreground: the start of the session a crash is measured from.
    public var sessionStart: Date?
    /// When the app last went to the background or crashed; nil while it is in the foreground.
    public var endedAt: Date?
    /// The last session crashed within the crash guard: the next launch shows no splash.
    public var crashGuardPending = false

    public init() {}
}
