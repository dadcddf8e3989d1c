import OrderedCollections
import ReelCore

/// The whole feed built page by page (all pages, or the first `limit`) and laid out for a screen,
/// as `reel feed build` prints it.
public struct FeedBuild: Sendable {
    public let controller: FeedController
    public let pages: [FeedPage]
    /// Quality and pixels per point used to fill thumbnail URLs.
    public let thumbnailQuality: Int
    public let scale: Double

    public init(api: FeedAPI, config: ReelConfig, screen: Size? = nil, pages limit: Int? = nil) {
        var controller = FeedController(config: config, screen: screen)
        let pages = api.pages(limit: limit)
        for page in pages {
            _ = controller.receive(page, at: 0)
        }
        self.controller = controller
        self.pages = pages
        thumbnailQuality = config.feed.thumbnailQuality
        scale = config.device.scale
    }

    public var model: FeedModel { controller.model }
    public var layout: FeedLayout { controller.layout }

    /// Thumbnail URL of a card, sized to its laid-out rect in pixels.
    public func thumbnailURL(_ card: CardRef) -> String? {
        guard let number = layout.cardNumber(card), let video = model.items[card.widget].cards[card.slot].video else { return nil }
        let rect = layout.cardRects[number]
        return video.thumbnailURL(width: Int((rect.width * scale).rounded()), height: Int((rect.height * scale).rounded()), quality: thumbnailQuality)
    }

    /// `{widgets: [{index, id, type, page, videos: [{url, aspectRatio, thumbnailURL}], frame}], pages: [{index, widgets}]}`;
    /// merch widgets add `imageURL`, collapsed ones have type null and `collapsed` with the reason.
    public var json: JSONValue {
        var widgets: [JSONValue] = []
        widgets.reserveCapacity(model.count)
        for item in model.items {
            var fields: OrderedDictionary<String, JSONValue> = [
                "index": .int(item.index),
                "id": .string(item.id),
                "type": item.type.map { .string($0.rawValue) } ?? .null,
                "page": .int(item.page),
            ]
            fields["videos"] = .array(item.cards.compactMap { card in
                guard let video = card.video else { return nil }
                return .object([
                    "url": .string(video.url),
                    "aspectRatio": .string(video.aspectRatio.description),
                    "thumbnailURL": .string(thumbnailURL(CardRef(widget: item.index, slot: card.slot)) ?? ""),
                ])
            })
            if case .merch(let merch)? = item.content {
                fields["imageURL"] = .string(merch.imageURL)
            }
            if let failure = item.failure {
                fields["collapsed"] = .string(failure)
            }
            fields["frame"] = layout.frames[item.index].json
            widgets.append(.object(fields))
        }
        let pageList: [JSONValue] = model.pages.map { record in
            .object(["index": .int(record.index), "widgets": .array(record.widgets.map { .int($0) })])
        }
        return .object(["widgets": .array(widgets), "pages": .array(pageList)])
    }
}
