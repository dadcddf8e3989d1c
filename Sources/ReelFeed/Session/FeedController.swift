import ReelCore
/// The feed's pure core, one value to drive: pages go into the model (resolved through the
/// component registry), layout grows incrementally, scroll samples become visibility
/// transitions, view holders are recycled, and the next page is asked for when the viewport nears
/// the loaded end. It performs no I/O and reads no clock: every input carries its time, and the
/// caller fetches requested pages and calls `tick` at `nextDeadline`.
public struct FeedController: Sendable {
    public private(set) var model: FeedModel
    public private(set) var layout: FeedLayout
    public private(set) var visibility: VisibilityTracker
    public private(set) var recycler: ViewRecycler
    public private(set) var pagination: PaginationPolicy
    private var warnedIDs: Set<String> = []

    /// A controller for `screen` (default: `device.screenWidth` x `device.screenHeight`).
    public init(config: ReelConfig, screen: Size? = nil, registry: ComponentRegistry = .standard) {
        model = FeedModel(registry: registry)
        layout = FeedLayout(config: config, screen: screen ?? Size(screenOf: config))
        visibility = VisibilityTracker(config: config)
        recycler = ViewRecycler(config: config)
        pagination = PaginationPolicy(config: config)
    }

    /// Asks for the first page.
    public mutating func start(at time: Double) -> FeedOutput {
        var output = FeedOutput()
        requestIfNeeded(at: time, into: &output)
        return output
    }

    /// A page arrived: resolve, lay out, re-evaluate visibility at the current offset.
    public mutating func receive(_ page: FeedPage, at time: Double) -> FeedOutput {
        pagination.received(page)
        var output = FeedOutput()
        let change = model.apply(page)
        output.events.append(FeedEvent(time: time, kind: .pageLoaded(page: page.index, widgets: model.pages.last?.widgets ?? [])))
        apply(change, at: time, into: &output)
        return output
    }

    /// New data for one widget outside the page flow (a live update).
    public mutating func update(_ data: WidgetData, page: Int, at time: Double) -> FeedOutput {
        var output = FeedOutput()
        let change = model.update(data, page: page)
        apply(change, at: time, into: &output)
        return output
    }

    /// A scroll sample; carousel ids and the tapped card id are looked up among loaded widgets
    /// (unknown ones are warned about once).
    public mutating func scroll(_ sample: ScrollSample) -> FeedOutput {
        var output = FeedOutput()
        var offsets: [(widget: Int, x: Double)] = []
        for (id, x) in sample.x.sorted(by: { $0.key < $1.key }) {
            if let widget = model.index(ofWidget: id), layout.types.indices.contains(widget), layout.types[widget] == .carousel {
                offsets.append((widget, x))
            } else if warnedIDs.insert("x:\(id)").inserted {
                output.warnings.append("line \(sample.line): \"\(id)\" is not a loaded carousel; its offset is ignored")
            }
        }
        let transitions = visibility.scroll(to: sample.y, carouselOffsets: offsets, at: sample.time, layout: layout, model: model)
        output.events += transitions.map { FeedEvent(time: sample.time, kind: .transition($0)) }
        if let tap = sample.tap { output.append(self.tap(tap, at: sample.time, line: sample.line)) }
        recycler.update(offset: visibility.offset, layout: layout)
        requestIfNeeded(at: sample.time, into: &output)
        return output
    }

    /// The user's intent to play a card, by id (an unknown one is warned about once; `line` names
    /// the trace line, 0 for live input).
    public mutating func tap(_ id: String, at time: Double, line: Int = 0) -> FeedOutput {
        var output = FeedOutput()
        let card = model.card(id: id)
        if card == nil, warnedIDs.insert("tap:\(id)").inserted {
            output.warnings.append(line > 0 ? "line \(line): tapped card \"\(id)\" is not loaded" : "tapped card \"\(id)\" is not loaded")
        }
        output.events.append(FeedEvent(time: time, kind: .tap(cardID: id, card: card)))
        return output
    }

    /// Releases held transitions when their time has come; call at `nextDeadline`.
    public mutating func tick(at time: Double) -> FeedOutput {
        var output = FeedOutput()
        let transitions = visibility.refresh(at: time, layout: layout, model: model)
        output.events += transitions.map { FeedEvent(time: time, kind: .transition($0)) }
        return output
    }

    /// The play arbiter grants (or revokes) play for a card.
    public mutating func setPlaying(_ card: CardRef, granted: Bool, at time: Double) -> FeedOutput {
        var output = FeedOutput()
        let transitions = visibility.setPlaying(card, granted: granted, at: time, layout: layout, model: model)
        output.events += transitions.map { FeedEvent(time: time, kind: .transition($0)) }
        return output
    }

    /// When `tick` must be called next, if held transitions are waiting.
    public var nextDeadline: Double? { visibility.nextDeadline }

    /// The state last reported for a card.
    public func state(of card: CardRef) -> VisibilityState {
        visibility.state(of: card, layout: layout)
    }

    private mutating func apply(_ change: FeedModel.Change, at time: Double, into output: inout FeedOutput) {
        output.events += change.reports.map { FeedEvent(time: time, kind: .collapsed(widgetID: $0.widgetID, reason: $0.reason)) }
        for widget in change.recreated {
            recycler.release(widget: widget)
        }
        if let from = change.relayoutFrom, from < layout.count {
            let oldCardStart = layout.cardStart
            layout.relayout(from: from, items: model.items)
            let transitions = visibility.cardsChanged(from: from, oldCardStart: oldCardStart, at: time, layout: layout, model: model)
            output.events += transitions.map { FeedEvent(time: time, kind: .transition($0)) }
        } else {
            layout.append(model.items[layout.count...])
        }
        let transitions = visibility.refresh(at: time, layout: layout, model: model)
        output.events += transitions.map { FeedEvent(time: time, kind: .transition($0)) }
        recycler.update(offset: visibility.offset, layout: layout)
        requestIfNeeded(at: time, into: &output)
    }

    private mutating func requestIfNeeded(at time: Double, into output: inout FeedOutput) {
        let height = layout.viewport.height
        if let cursor = pagination.request(viewportBottom: visibility.offset + height, viewportHeight: height, contentHeight: layout.contentHeight) {
            output.pageRequest = cursor
            output.events.append(FeedEvent(time: time, kind: .pageRequested(page: cursor.page)))
        }
    }
}
