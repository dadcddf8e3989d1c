import ReelCore
/// One widget as a page of the feed API delivers it: an id, a route naming the component that
/// renders it, and untyped fields that the route's mapper turns into content.
public struct WidgetData: Sendable, Equatable {
    /// Stable id (see `WidgetPlanner` for the scheme).
    public var id: String
    /// The component route ("short", "carousel", "merch" by default).
    public var route: String
    public var fields: [String: JSONValue]

    public init(id: String, route: String, fields: [String: JSONValue] = [:]) {
        self.id = id
        self.route = route
        self.fields = fields
    }
}
