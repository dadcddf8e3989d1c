import ReelCore
import Foundation

/// One splash of the configuration: an animation shown in a date window, at most once per
/// display interval, ranked by priority.
public struct SplashEntry: Sendable, Hashable {
    public var id: String
    public var name: String
    /// The window: shown when `start <= now < end` (UTC).
    public var start: Date
    public var end: Date
    /// The asset's absolute URL (relative ones are resolved against the configuration's URL).
    public var assetURL: String
    /// Minutes that must pass after this splash was shown before it shows again (0: every time).
    public var displayIntervalMinutes: Double
    /// Lower wins; nil sorts after every number.
    public var priority: Int?

    public init(id: String, name: String = "", start: Date, end: Date, assetURL: String,
                displayIntervalMinutes: Double = 0, priority: Int? = nil) {
        self.id = id
        self.name = name
        self.start = start
        self.end = end
        self.assetURL = assetURL
        self.displayIntervalMinutes = displayIntervalMinutes
        self.priority = priority
    }

    /// Whether the window holds `time`.
    public func isOpen(at time: Date) -> Bool {
        start <= time && time < end
    }

    /// Whether this splash goes before `other` when both could show: the lower priority (a
    /// missing one last), then the earlier start, then the smaller id.
    public func ranks(before other: SplashEntry) -> Bool {
        switch (priority, other.priority) {
        case (let a?, let b?) where a != b: return a < b
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if start != other.start { return start < other.start }
        return id < other.id
    }
}
