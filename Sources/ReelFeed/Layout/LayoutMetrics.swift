import ReelCore
/// The numbers layout needs, read once from the configuration and the screen: feed width
/// (min(screen width, `feed.maxContentWidth`)), centred, and the sizes of each widget's parts.
public struct LayoutMetrics: Sendable, Equatable {
    public let screen: Size
    public let screenClass: ScreenClass
    public let feedWidth: Double
    /// Left edge of the centred feed column.
    public let feedX: Double
    public let widgetSpacing: Double
    public let shortTitleHeight: Double
    public let shortCommentHeight: Double
    public let carouselVisibleCards: Double
    public let carouselCardSpacing: Double
    public let carouselCardRatio: AspectRatio
    public let carouselTitleHeight: Double
    public let merchTitleHeight: Double
    public let merchFooterHeight: Double

    public init(config: ReelConfig, screen: Size) {
        let layout = config.layout
        self.screen = screen
        screenClass = ScreenClass(width: screen.width, breakpoints: layout.breakpoints)
        feedWidth = min(screen.width, Double(config.feed.maxContentWidth))
        feedX = ((screen.width - feedWidth) / 2).rounded(.down)
        widgetSpacing = layout.widgetSpacing
        shortTitleHeight = layout.short.titleHeight
        shortCommentHeight = layout.short.commentHeight
        switch screenClass {
        case .small: carouselVisibleCards = layout.carousel.visibleCards.small
        case .medium: carouselVisibleCards = layout.carousel.visibleCards.medium
        case .large: carouselVisibleCards = layout.carousel.visibleCards.large
        }
        carouselCardSpacing = layout.carousel.cardSpacing
        carouselCardRatio = AspectRatio(layout.carousel.cardAspectRatio) ?? AspectRatio(height: 16, width: 9)!
        carouselTitleHeight = layout.carousel.titleHeight
        merchTitleHeight = layout.merch.titleHeight
        merchFooterHeight = layout.merch.footerHeight
    }

    /// Width of one carousel card: `visibleCards` cards and the gaps between the whole ones fill
    /// the feed width (2.5 cards show two gaps and half a card).
    public var carouselCardWidth: Double {
        let gaps = carouselVisibleCards.rounded(.down) * carouselCardSpacing
        return max(1, (feedWidth - gaps) / carouselVisibleCards)
    }
}
