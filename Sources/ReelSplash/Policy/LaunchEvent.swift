import ReelCore
import Foundation

/// One moment in the app's life that the launch policy hears about, with its wall-clock time.
public struct LaunchEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The process started (a cold start).
        case launch
        /// The app came back from the background.
        case foreground
        /// The app went to the background.
        case background
        /// The process crashed: the session ends here.
        case crash
    }

    public var time: Date
    public var kind: Kind

    public init(time: Date, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}
