
/// Why a video is worth fetching ahead, coarsest priority first: the card about to play
/// (`imminent`), cards inside the prefetch range (`nearby`), the rest of a page just loaded
/// (`page`), and anything else (`background`). Their order is `prefetch.categories`; a category
/// missing from that list is not prefetched.
public enum PrefetchCategory: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case imminent, nearby, page, background

    public var description: String { rawValue }

    /// The segments a request of this category fetches by default: `prefetch.segments.<category>`,
    /// or `prefetch.lowEndSegments` on a low-end device.
    public func segments(_ config: ReelConfig) -> Int {
        if config.device.isLowEnd { return config.prefetch.lowEndSegments }
        switch self {
        case .imminent: return config.prefetch.segments.imminent
        case .nearby: return config.prefetch.segments.nearby
        case .page: return config.prefetch.segments.page
        case .background: return config.prefetch.segments.background
        }
    }

    /// The categories in `prefetch.categories` order, highest first (unknown names skipped; the
    /// configuration's own rule refuses them).
    public static func order(_ config: ReelConfig) -> [PrefetchCategory] {
        var seen: Set<PrefetchCategory> = []
        return config.prefetch.categories.compactMap(PrefetchCategory.init(rawValue:)).filter { seen.insert($0).inserted }
    }
}
