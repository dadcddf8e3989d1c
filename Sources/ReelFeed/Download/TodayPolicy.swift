/// Today's download decisions through the interface: each player reads ahead by its own buffer
/// rule (`BufferPolicy`'s watermarks) at the variant its own adaptive rule chooses
/// (`ABRPolicy`), and the prefetch jobs read what the preload stages and the prefetch policy
/// (its categories, cap and gate) start; a card's thumbnail loads as the card comes near. The
/// policy grants the segment a reader asks for, at the variant it asked, at once and as many at a
/// time as ask, and any thumbnail it is shown; it never fetches on its own. With it a session
/// decides exactly as before the interface existed (docs/download-wiring.md).
public struct TodayPolicy: DownloadPolicy {
    public let name = "today"
    public var readsOnlyAsks: Bool { true }

    public init() {}

    public mutating func decide(_ state: LinkState) -> DownloadDecision {
        for video in state.videos {
            if let asks = video.asks { return .fetch(asks) }
        }
        // A thumbnail is loaded as soon as its card comes near.
        if let thumbnail = state.thumbnails.first { return .fetchThumbnail(thumbnail.id) }
        // Nothing to do until a reader asks (and asking is a change the caller reports).
        return .wait(until: .infinity)
    }
}
