import OrderedCollections
import ReelCore

/// Something that happened in the feed at a time: a card transition, a page requested or loaded,
/// a widget collapsed, or the user tapping a card.
public struct FeedEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case transition(VisibilityTransition)
        case pageRequested(page: Int)
        case pageLoaded(page: Int, widgets: [Int])
        case collapsed(widgetID: String, reason: String)
        /// The user's intent to play a card; `card` is nil when the id is not loaded.
        case tap(cardID: String, card: CardRef?)
    }

    /// Seconds on the session's clock.
    public var time: Double
    public var kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The event as one JSON object: `{"t", "event", ...}`.
    public var json: JSONValue {
        var fields: OrderedDictionary<String, JSONValue> = ["t": .double(time)]
        switch kind {
        case .transition(let transition):
            fields["event"] = .string("transition")
            fields["card"] = .string(transition.cardID)
            fields["widget"] = .string(transition.widgetID)
            fields["type"] = transition.widgetType.map { .string($0.rawValue) } ?? .null
            fields["from"] = .string(transition.from.rawValue)
            fields["to"] = .string(transition.to.rawValue)
            fields["fraction"] = .double((transition.fraction * 10_000).rounded() / 10_000)
        case .pageRequested(let page):
            fields["event"] = .string("pageRequested")
            fields["page"] = .int(page)
        case .pageLoaded(let page, let widgets):
            fields["event"] = .string("pageLoaded")
            fields["page"] = .int(page)
            fields["widgets"] = .array(widgets.map { .int($0) })
        case .collapsed(let widgetID, let reason):
            fields["event"] = .string("collapsed")
            fields["widget"] = .string(widgetID)
            fields["reason"] = .string(reason)
        case .tap(let cardID, let card):
            fields["event"] = .string("tap")
            fields["card"] = .string(cardID)
            fields["loaded"] = .bool(card != nil)
        }
        return .object(fields)
    }
}
