import ReelCore
/// The visibility policy's numbers, read once from `visibility.*`.
public struct VisibilityParameters: Sendable, Equatable {
    /// The unit of the prefetch range ahead.
    public enum PrefetchUnit: String, Sendable {
        case screens, cards
    }

    /// Thresholds by `WidgetType.ordinal`.
    public var thresholds: [VisibilityThresholds]
    public var hysteresis: Double
    public var prefetchUnit: PrefetchUnit
    public var prefetchScreens: Double
    public var prefetchCards: Int
    public var keepScreens: Double
    public var carouselPrefetchCards: Int
    /// Points per second above which costly transitions are held back.
    public var coalesceVelocity: Double
    /// Seconds a held transition waits at most.
    public var maxDelay: Double
    /// Seconds without scroll events after which the scroll counts as stopped.
    public var settle: Double

    public init(config: ReelConfig) {
        let v = config.visibility
        thresholds = WidgetType.allCases.map { VisibilityThresholds(v.thresholds(for: $0)) }
        hysteresis = v.hysteresis
        prefetchUnit = PrefetchUnit(rawValue: v.prefetch.unit) ?? .screens
        prefetchScreens = v.prefetch.screens
        prefetchCards = v.prefetch.cards
        keepScreens = v.prefetch.keepScreens
        carouselPrefetchCards = v.prefetch.carouselCards
        coalesceVelocity = v.coalesce.velocity
        maxDelay = Double(v.coalesce.maxDelayMs) / 1000
        settle = Double(v.coalesce.settleMs) / 1000
    }

    public func thresholds(for type: WidgetType) -> VisibilityThresholds {
        thresholds[type.ordinal]
    }
}
