import ReelCore
import Foundation

/// A crash and how long its session had lasted (from the last launch or foreground).
public struct CrashRecord: Sendable, Hashable {
    public var time: Date
    public var sessionSeconds: Double

    public init(time: Date, sessionSeconds: Double) {
        self.time = time
        self.sessionSeconds = sessionSeconds
    }
}
