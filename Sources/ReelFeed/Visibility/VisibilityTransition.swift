import ReelCore
/// One card changing state, with the visible fraction that caused it.
public struct VisibilityTransition: Sendable, Equatable {
    /// Seconds on the session's clock.
    public var time: Double
    public var card: CardRef
    public var cardID: String
    public var widgetID: String
    public var widgetType: WidgetType?
    public var from: VisibilityState
    public var to: VisibilityState
    /// Visible fraction of the card, 0...1.
    public var fraction: Double

    public init(time: Double, card: CardRef, cardID: String, widgetID: String, widgetType: WidgetType?, from: VisibilityState, to: VisibilityState, fraction: Double) {
        self.time = time
        self.card = card
        self.cardID = cardID
        self.widgetID = widgetID
        self.widgetType = widgetType
        self.from = from
        self.to = to
        self.fraction = fraction
    }
}
