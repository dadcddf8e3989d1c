import ReelCore
/// The play arbiter's numbers, read once from `playback.*` and `device.isLowEnd`.
public struct PlayParameters: Sendable, Equatable {
    /// Cards of one widget playing at once at most, by `WidgetType.ordinal`.
    public var maxSimultaneous: [Int]
    /// Preview seconds by category; 0 plays the whole video.
    public var previewSeconds: [PreviewCategory: Double]
    /// Nothing autoplays, and at most one card plays.
    public var isLowEnd: Bool
    /// A user's play may start an ended video again from its beginning.
    public var userPlayReplaysEnded: Bool

    public init(config: ReelConfig) {
        let playback = config.playback
        self.init(
            maxSimultaneous: Dictionary(uniqueKeysWithValues: WidgetType.allCases.map { ($0, playback.maxSimultaneous(for: $0)) }),
            previewSeconds: [
                .short: playback.previewSeconds.short,
                .carousel: playback.previewSeconds.carousel,
            ],
            isLowEnd: config.device.isLowEnd,
            userPlayReplaysEnded: playback.userPlayReplaysEnded
        )
    }

    /// Parameters with the given limits (types not named may not play) and previews (categories
    /// not named play whole videos).
    public init(maxSimultaneous: [WidgetType: Int], previewSeconds: [PreviewCategory: Double] = [:], isLowEnd: Bool = false, userPlayReplaysEnded: Bool = true) {
        self.maxSimultaneous = WidgetType.allCases.map { max(0, maxSimultaneous[$0] ?? 0) }
        self.previewSeconds = previewSeconds
        self.isLowEnd = isLowEnd
        self.userPlayReplaysEnded = userPlayReplaysEnded
    }

    /// Cards of one widget of `type` that may play at once: the configured limit, at most 1 on a
    /// low-end device.
    public func limit(for type: WidgetType) -> Int {
        let limit = maxSimultaneous[type.ordinal]
        return isLowEnd ? min(limit, 1) : limit
    }

    /// The preview limit an autoplay grant carries for `category`; nil plays the whole video.
    public func previewLimit(for category: PreviewCategory?) -> Double? {
        guard let category, let seconds = previewSeconds[category], seconds > 0 else { return nil }
        return seconds
    }
}
