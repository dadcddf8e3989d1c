import ReelCore
/// What a widget shows once its page data went through its route's mapper.
public enum WidgetContent: Sendable, Hashable {
    case short(ShortContent)
    case carousel(CarouselContent)
    case merch(MerchContent)

    public var type: WidgetType {
        switch self {
        case .short: .short
        case .carousel: .carousel
        case .merch: .merch
        }
    }

    /// The videos in card order; empty for merch.
    public var videos: [Video] {
        switch self {
        case .short(let content): [content.video]
        case .carousel(let content): content.videos
        case .merch: []
        }
    }

    /// Cards the widget has: one per video, one for a merch image.
    public var cardCount: Int {
        switch self {
        case .short: 1
        case .carousel(let content): content.videos.count
        case .merch: 1
        }
    }

    /// The widget's cards with their ids.
    public func cards(widgetID: String) -> [Card] {
        switch self {
        case .merch: [Card(widgetID: widgetID, slot: 0, video: nil)]
        default: videos.enumerated().map { Card(widgetID: widgetID, slot: $0.offset, video: $0.element) }
        }
    }
}
