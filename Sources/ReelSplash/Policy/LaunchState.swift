import ReelCore
import Foundation

/// Everything the launch policy remembers across processes, besides the splash configuration
/// and the assets: the lifecycle, when each splash was last shown, the recent crashes.
public struct LaunchState: Sendable, Hashable {
    /// Crashes kept, the most recent ones.
    public static let crashesKept = 32

    public var lifecycle = LaunchLifecycle()
    /// When each splash was last shown, by splash id (kept per splash, so overlapping splashes
    /// each keep their own interval).
    public var lastDisplayed: [String: Date] = [:]
    /// Recent crashes, oldest first, at most `crashesKept`.
    public var crashes: [CrashRecord] = []

    public init() {}
}
