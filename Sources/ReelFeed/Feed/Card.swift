import ReelCore
/// One slot of a widget that shows one video (or, for merch, the image): what visibility tracks.
public struct Card: Sendable, Hashable {
    /// "<widget id>/<slot>", such as "c21/3" or "s0/0".
    public let id: String
    public let slot: Int
    /// The card's video; nil for a merch card.
    public let video: Video?

    public init(widgetID: String, slot: Int, video: Video?) {
        self.id = "\(widgetID)/\(slot)"
        self.slot = slot
        self.video = video
    }
}

/// A card by position: the widget's index in the feed and the slot within the widget.
public struct CardRef: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let widget: Int
    public let slot: Int

    public init(widget: Int, slot: Int) {
        self.widget = widget
        self.slot = slot
    }

    public static func < (lhs: CardRef, rhs: CardRef) -> Bool {
        (lhs.widget, lhs.slot) < (rhs.widget, rhs.slot)
    }

    public var description: String { "\(widget)/\(slot)" }
}
