import Foundation
import ReelCore

/// Turns the catalog into the feed's widgets, as the mock server plans them. Walking the catalog in
/// order, every `carouselEvery`-th video widget is a carousel of the next `carouselSize` videos and
/// the others are shorts of one video. After each video widget a merch widget may follow: with
/// chance `merch.rate`, from a generator seeded by `widgets.seed` and the gap's position, and
/// only after at least `merch.minGap` video widgets; merch never counts in the video rhythm and
/// never ends the feed. At the catalog's end a carousel takes what is left when that is at least
/// `carouselMinSize` videos; fewer become shorts, so every video appears exactly once.
///
/// Ids: a short is "s<catalog index>", a carousel "c<catalog index of its first video>", a merch
/// widget "m<merch ordinal>"; when the catalog loops, video widgets of lap n > 0 get "@n"
/// ("s12@1"). Cards are "<widget id>/<slot>".
public struct WidgetPlanner: Sendable {
    public let entries: [CatalogEntry]
    public let settings: WidgetSettings
    public let loops: Bool
    /// Widgets planned at most; 0 for no limit.
    public let maxWidgets: Int
    private let merchRatios: [AspectRatio]

    public init(catalog: FeedCatalog, config: ReelConfig) {
        entries = catalog.entries
        settings = config.widgets
        loops = config.pagination.loopCatalog
        maxWidgets = config.pagination.maxWidgets
        let ratios = config.widgets.merch.imageAspectRatios.compactMap(AspectRatio.init)
        merchRatios = ratios.isEmpty ? [AspectRatio(height: 1, width: 1)!] : ratios
    }

    /// Whether the plan never ends (a looping, unlimited, non-empty catalog).
    public var isEndless: Bool {
        loops && maxWidgets == 0 && !entries.isEmpty
    }

    /// Plans the widget at `cursor` and advances the cursor; nil at the end of the feed.
    public func next(_ cursor: inout FeedCursor) -> WidgetData? {
        guard !entries.isEmpty, maxWidgets == 0 || cursor.widget < maxWidgets else { return nil }
        let remaining = loops ? Int.max : entries.count - cursor.video
        guard remaining > 0 else { return nil }

        if cursor.gapPending {
            cursor.gapPending = false
            if cursor.sinceMerch >= settings.merch.minGap {
                var random = SeededRandom(seed: settings.seed, stream: 6, position: cursor.videoWidgets)
                if random.unit() < settings.merch.rate {
                    let merch = merchWidget(ordinal: cursor.merchWidgets)
                    cursor.merchWidgets += 1
                    cursor.sinceMerch = 0
                    cursor.widget += 1
                    return merch
                }
            }
        }

        let ordinal = cursor.videoWidgets + 1
        let data: WidgetData
        let take = min(settings.carouselSize, remaining)
        if ordinal % settings.carouselEvery == 0, take >= settings.carouselMinSize {
            let videos = (0..<take).map { video(at: cursor.video + $0) }
            let content = CarouselContent(title: DummyText.carouselTitle(seed: settings.seed, ordinal: ordinal), videos: videos)
            data = content.pageData(id: widgetID("c", videos[0]))
            cursor.video += take
        } else {
            let video = video(at: cursor.video)
            let content = ShortContent(video: video, title: DummyText.shortTitle(seed: settings.seed, video: video), comment: DummyText.comment(seed: settings.seed, video: video))
            data = content.pageData(id: widgetID("s", video))
            cursor.video += 1
        }
        cursor.videoWidgets += 1
        cursor.sinceMerch += 1
        cursor.gapPending = true
        cursor.widget += 1
        return data
    }

    private func video(at position: Int) -> Video {
        Video(entry: entries[position % entries.count], lap: position / entries.count)
    }

    private func widgetID(_ prefix: String, _ video: Video) -> String {
        video.lap == 0 ? "\(prefix)\(video.catalogIndex)" : "\(prefix)\(video.catalogIndex)@\(video.lap)"
    }

    private func merchWidget(ordinal: Int) -> WidgetData {
        var random = SeededRandom(seed: settings.seed, stream: 7, position: ordinal)
        let ratio = random.pick(merchRatios)
        let width = settings.merch.imageWidth
        let height = max(1, Int((Double(width) * ratio.heightPerWidth).rounded()))
        let url = settings.merch.imageURLTemplate
            .replacingOccurrences(of: "{seed}", with: "\(settings.seed)-\(ordinal)")
            .replacingOccurrences(of: "{width}", with: String(width))
            .replacingOccurrences(of: "{height}", with: String(height))
            .replacingOccurrences(of: "{n}", with: String(1 + ordinal % settings.merch.imageCount))
        let content = MerchContent(
            imageURL: url, imageWidth: width, imageHeight: height,
            title: DummyText.merchTitle(seed: settings.seed, ordinal: ordinal),
            footer: DummyText.merchFooter(seed: settings.seed, ordinal: ordinal)
        )
        return content.pageData(id: "m\(ordinal)")
    }
}
