import ReelCore
/// A card as the play arbiter knows it: where it sits in the feed (`ref`, which orders waiting
/// cards), its stable ids, its widget's type (which sets how many of its cards may play) and its
/// preview category (nil: no preview limit).
public struct PlayCard: Sendable, Hashable, CustomStringConvertible {
    public var ref: CardRef
    /// "<widget id>/<slot>", stable for the session: play-once is remembered by it.
    public var id: String
    public var widgetID: String
    public var widgetType: WidgetType
    public var previewCategory: PreviewCategory?

    public init(ref: CardRef, id: String, widgetID: String, widgetType: WidgetType, previewCategory: PreviewCategory?) {
        self.ref = ref
        self.id = id
        self.widgetID = widgetID
        self.widgetType = widgetType
        self.previewCategory = previewCategory
    }

    /// A card in its widget type's preview category.
    public init(ref: CardRef, id: String, widgetID: String, widgetType: WidgetType) {
        self.init(ref: ref, id: id, widgetID: widgetID, widgetType: widgetType, previewCategory: PreviewCategory(widgetType))
    }

    /// The card a visibility transition is about; nil for a collapsed widget, which has no type.
    public init?(_ transition: VisibilityTransition) {
        guard let type = transition.widgetType else { return nil }
        self.init(ref: transition.card, id: transition.cardID, widgetID: transition.widgetID, widgetType: type)
    }

    public var description: String { id }
}
