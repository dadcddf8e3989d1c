import ReelCore
/// The dynamic-content pattern: each widget type registers a route and a mapper from page data to
/// its content, and the feed resolves every widget through here. A widget whose route is not
/// registered, or whose mapper throws or returns content of another type, resolves to a failure
/// (the feed collapses it to zero height) and never crashes.
public struct ComponentRegistry: Sendable {
    /// Turns one widget's page data into content, or throws why it cannot.
    public typealias Mapper = @Sendable (WidgetData) throws -> WidgetContent

    /// A registered route.
    public struct Route: Sendable {
        public let name: String
        public let type: WidgetType
        let mapper: Mapper
    }

    /// The outcome of resolving one widget.
    public enum Resolution: Sendable, Equatable {
        case content(WidgetContent)
        case failure(String)
    }

    private var routes: [String: Route] = [:]

    /// An empty registry.
    public init() {}

    /// The routes "short", "carousel" and "merch" with their standard mappers.
    public static let standard: ComponentRegistry = {
        var registry = ComponentRegistry()
        registry.register(route: "short", type: .short) { .short(try ShortContent(pageData: $0)) }
        registry.register(route: "carousel", type: .carousel) { .carousel(try CarouselContent(pageData: $0)) }
        registry.register(route: "merch", type: .merch) { .merch(try MerchContent(pageData: $0)) }
        return registry
    }()

    /// Registers (or replaces) the route `route` for widgets of `type`.
    public mutating func register(route: String, type: WidgetType, mapper: @escaping Mapper) {
        routes[route] = Route(name: route, type: type, mapper: mapper)
    }

    public func route(named name: String) -> Route? {
        routes[name]
    }

    /// Every registered route name, sorted.
    public var routeNames: [String] {
        routes.keys.sorted()
    }

    /// Resolves one widget through its route.
    public func resolve(_ data: WidgetData) -> Resolution {
        guard let route = routes[data.route] else {
            return .failure("no component registered for route '\(data.route)'")
        }
        do {
            let content = try route.mapper(data)
            guard content.type == route.type else {
                return .failure("mapper of route '\(data.route)' returned \(content.type.rawValue) content, expected \(route.type.rawValue)")
            }
            return .content(content)
        } catch {
            return .failure("mapper of route '\(data.route)' failed: \(error)")
        }
    }
}
