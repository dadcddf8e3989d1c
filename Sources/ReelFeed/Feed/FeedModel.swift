import ReelCore
/// The feed's widgets in order, resolved through a `ComponentRegistry` as pages arrive. New data
/// for a known widget id with the same route updates the widget in place (same `instance`, next
/// `revision`); with another route the widget is recreated at the same position (new `instance`).
/// A widget that fails to resolve collapses and is reported once per id and reason.
public struct FeedModel: Sendable {
    /// Which widgets one page delivered.
    public struct PageRecord: Sendable, Equatable {
        public let index: Int
        /// Feed positions of the page's widgets, in page order.
        public let widgets: [Int]
    }

    /// What one applied page (or update) changed.
    public struct Change: Sendable, Equatable {
        /// Positions of widgets new to the feed.
        public var appended: Range<Int>
        /// Positions of widgets updated in place.
        public var updated: [Int] = []
        /// Positions of widgets recreated with a new identity.
        public var recreated: [Int] = []
        /// The first position whose layout may have changed, if any other than the appended ones.
        public var relayoutFrom: Int?
        /// New collapse reports.
        public var reports: [CollapseReport] = []
    }

    public let registry: ComponentRegistry
    public private(set) var items: [FeedItem] = []
    public private(set) var pages: [PageRecord] = []
    /// Every collapse report so far.
    public private(set) var reports: [CollapseReport] = []
    private var indexByID: [String: Int] = [:]
    private var reported: Set<String> = []
    private var nextInstance = 0

    public init(registry: ComponentRegistry = .standard) {
        self.registry = registry
    }

    public var count: Int { items.count }

    /// The feed position of a widget id.
    public func index(ofWidget id: String) -> Int? {
        indexByID[id]
    }

    /// The card with id "<widget id>/<slot>", if the widget is loaded and has that slot.
    public func card(id: String) -> CardRef? {
        guard let slash = id.lastIndex(of: "/"), let slot = Int(id[id.index(after: slash)...]),
              let widget = indexByID[String(id[..<slash])], slot >= 0, slot < items[widget].cards.count
        else { return nil }
        return CardRef(widget: widget, slot: slot)
    }

    /// The video a card shows; nil for merch cards and unknown positions.
    public func video(of card: CardRef) -> Video? {
        guard items.indices.contains(card.widget), items[card.widget].cards.indices.contains(card.slot) else { return nil }
        return items[card.widget].cards[card.slot].video
    }

    /// The card's id and its widget's id and type, for events.
    public func describe(_ card: CardRef) -> (cardID: String, widgetID: String, type: WidgetType?) {
        let item = items[card.widget]
        let cardID = card.slot < item.cards.count ? item.cards[card.slot].id : "\(item.id)/\(card.slot)"
        return (cardID, item.id, item.type)
    }

    /// Applies one page: new widgets are appended, known ones updated or recreated.
    @discardableResult
    public mutating func apply(_ page: FeedPage) -> Change {
        let start = items.count
        var change = Change(appended: start..<start)
        var positions: [Int] = []
        positions.reserveCapacity(page.widgets.count)
        for data in page.widgets {
            positions.append(apply(data, page: page.index, change: &change))
        }
        change.appended = start..<items.count
        pages.append(PageRecord(index: page.index, widgets: positions))
        return change
    }

    /// Applies new data for one widget outside a page (a live update); `page` is recorded on it.
    @discardableResult
    public mutating func update(_ data: WidgetData, page: Int) -> Change {
        let start = items.count
        var change = Change(appended: start..<start)
        _ = apply(data, page: page, change: &change)
        change.appended = start..<items.count
        return change
    }

    private mutating func apply(_ data: WidgetData, page: Int, change: inout Change) -> Int {
        let resolution = registry.resolve(data)
        var content: WidgetContent?
        var failure: String?
        switch resolution {
        case .content(let resolved): content = resolved
        case .failure(let reason):
            failure = reason
            let report = CollapseReport(widgetID: data.id, reason: reason)
            if reported.insert("\(data.id)\u{0}\(reason)").inserted {
                reports.append(report)
                change.reports.append(report)
            }
        }
        let cards = content?.cards(widgetID: data.id) ?? []

        if let index = indexByID[data.id] {
            var item = items[index]
            let oldHeightShape = (item.type, item.cards.count, item.content)
            if item.route == data.route {
                item.revision += 1
                change.updated.append(index)
            } else {
                item.route = data.route
                item.instance = nextInstance
                item.revision = 0
                nextInstance += 1
                change.recreated.append(index)
            }
            item.content = content
            item.failure = failure
            item.page = page
            item.cards = cards
            items[index] = item
            if oldHeightShape != (item.type, item.cards.count, item.content) {
                change.relayoutFrom = min(change.relayoutFrom ?? index, index)
            }
            return index
        }

        let index = items.count
        items.append(FeedItem(index: index, id: data.id, route: data.route, content: content, failure: failure, page: page, instance: nextInstance, revision: 0, cards: cards))
        nextInstance += 1
        indexByID[data.id] = index
        return index
    }
}
