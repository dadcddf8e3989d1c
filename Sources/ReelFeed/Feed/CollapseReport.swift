import ReelCore
/// A widget that collapsed to zero height because it could not be resolved, and why.
public struct CollapseReport: Sendable, Equatable, CustomStringConvertible {
    public let widgetID: String
    public let reason: String

    public var description: String { "widget '\(widgetID)' collapsed: \(reason)" }
}
