import ReelCore
/// Frames of every widget and card, computed incrementally as pages arrive (`append`) and
/// redone from one position when a widget's content changes (`relayout`).
///
/// - A short's video box is aspect-fit from its height:width ratio into the feed width, capped so
///   that video, title and comment fit in the viewport; the box is centred, title and comment
///   follow below.
/// - A carousel spans the feed width: a title line over a row of cards of
///   `layout.carousel.cardAspectRatio`, `visibleCards` of them across the feed width.
/// - A merch card spans the feed width; its image's height follows the image ratio, with a title
///   and a footer below.
/// - A collapsed widget has zero height and no spacing.
///
/// Card rects are in content coordinates; a carousel's are at horizontal offset 0 and move left by
/// the carousel's horizontal offset, clipped to the carousel's frame.
public struct FeedLayout: Sendable {
    public let metrics: LayoutMetrics
    /// Each widget's frame.
    public private(set) var frames: [Rect] = []
    /// Each widget's type; nil when collapsed.
    public private(set) var types: [WidgetType?] = []
    /// `cardStart[w]..<cardStart[w + 1]` are widget w's cards (one more element than widgets).
    public private(set) var cardStart: [Int] = [0]
    /// Each card's media rect (video box, carousel card, merch image).
    public private(set) var cardRects: [Rect] = []
    /// Each card's widget.
    public private(set) var cardWidget: [Int] = []
    /// Top of the next widget.
    private var nextY: Double = 0

    public init(metrics: LayoutMetrics) {
        self.metrics = metrics
    }

    public init(config: ReelConfig, screen: Size) {
        self.init(metrics: LayoutMetrics(config: config, screen: screen))
    }

    public var count: Int { frames.count }
    public var cardCount: Int { cardRects.count }
    public var viewport: Size { metrics.screen }

    /// Bottom of the last widget.
    public var contentHeight: Double {
        frames.last.map { max(0, $0.maxY) } ?? 0
    }

    /// Card numbers of one widget.
    @inline(__always)
    public func cards(ofWidget widget: Int) -> Range<Int> {
        cardStart[widget]..<cardStart[widget + 1]
    }

    /// A card's number from its position.
    public func cardNumber(_ card: CardRef) -> Int? {
        guard card.widget >= 0, card.widget < count, card.slot >= 0 else { return nil }
        let number = cardStart[card.widget] + card.slot
        return number < cardStart[card.widget + 1] ? number : nil
    }

    /// A card's position from its number.
    @inline(__always)
    public func cardRef(number: Int) -> CardRef {
        let widget = cardWidget[number]
        return CardRef(widget: widget, slot: number - cardStart[widget])
    }

    /// Lays out widgets appended to the model since the last call.
    public mutating func append(_ items: some Collection<FeedItem>) {
        // No reserveCapacity here: reserving the exact size on every page defeats the arrays'
        // geometric growth and copies the whole layout each time.
        for item in items {
            place(item)
        }
    }

    /// Lays out every widget from `index` on again (after an update changed a widget's size or its
    /// cards).
    public mutating func relayout(from index: Int, items: [FeedItem]) {
        guard index < frames.count else {
            append(items[frames.count...])
            return
        }
        let firstCard = cardStart[index]
        nextY = frames[index].y
        frames.removeSubrange(index...)
        types.removeSubrange(index...)
        cardStart.removeSubrange((index + 1)...)
        cardRects.removeSubrange(firstCard...)
        cardWidget.removeSubrange(firstCard...)
        append(items[index...])
    }

    /// Positions of widgets whose frames meet the band `lower..<upper` (plus zero-height widgets
    /// inside it), by binary search over the frames.
    public func widgets(from lower: Double, to upper: Double) -> Range<Int> {
        let start = firstIndex { $0.maxY > lower }
        let end = firstIndex { $0.minY >= upper }
        return start..<max(start, end)
    }

    /// Position of the first widget at or after `y` (its bottom below `y`).
    public func firstWidget(below y: Double) -> Int {
        firstIndex { $0.maxY > y }
    }

    /// Width of a carousel's row of cards.
    public func carouselContentWidth(widget: Int) -> Double {
        let cards = cards(ofWidget: widget)
        guard let first = cards.first, let last = cards.last else { return 0 }
        return cardRects[last].maxX - cardRects[first].minX
    }

    /// Furthest a carousel can scroll horizontally.
    public func maxCarouselOffset(widget: Int) -> Double {
        max(0, carouselContentWidth(widget: widget) - frames[widget].width)
    }

    /// First index whose frame satisfies a predicate that is false then true along the feed.
    @inline(__always)
    private func firstIndex(where predicate: (Rect) -> Bool) -> Int {
        var low = 0
        var high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if predicate(frames[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    private mutating func place(_ item: FeedItem) {
        let m = metrics
        let widget = frames.count
        let y = nextY
        var frame = Rect(x: m.feedX, y: y, width: m.feedWidth, height: 0)
        switch item.content {
        case nil:
            break
        case .short(let short)?:
            let ratio = short.video.aspectRatio.heightPerWidth
            let maxVideoHeight = max(1, m.screen.height - m.shortTitleHeight - m.shortCommentHeight)
            var width = m.feedWidth
            var height = width * ratio
            if height > maxVideoHeight {
                height = maxVideoHeight
                width = height / ratio
            }
            addCard(Rect(x: m.feedX + (m.feedWidth - width) / 2, y: y, width: width, height: height), widget: widget)
            frame.height = height + m.shortTitleHeight + m.shortCommentHeight
        case .carousel(let carousel)?:
            let cardWidth = m.carouselCardWidth
            let cardHeight = cardWidth * m.carouselCardRatio.heightPerWidth
            let top = y + m.carouselTitleHeight
            for slot in carousel.videos.indices {
                addCard(Rect(x: m.feedX + Double(slot) * (cardWidth + m.carouselCardSpacing), y: top, width: cardWidth, height: cardHeight), widget: widget)
            }
            frame.height = m.carouselTitleHeight + cardHeight
        case .merch(let merch)?:
            let imageHeight = m.feedWidth * Double(merch.imageHeight) / Double(merch.imageWidth)
            addCard(Rect(x: m.feedX, y: y, width: m.feedWidth, height: imageHeight), widget: widget)
            frame.height = imageHeight + m.merchTitleHeight + m.merchFooterHeight
        }
        frames.append(frame)
        types.append(item.type)
        cardStart.append(cardRects.count)
        if frame.height > 0 {
            nextY = frame.maxY + m.widgetSpacing
        }
    }

    @inline(__always)
    private mutating func addCard(_ rect: Rect, widget: Int) {
        cardRects.append(rect)
        cardWidget.append(widget)
    }
}
