import ReelCore
/// What one input to the `FeedController` produced: events in order, the page to request (if the
/// viewport came near the loaded end) and warnings for people.
public struct FeedOutput: Sendable, Equatable {
    public var events: [FeedEvent] = []
    /// The cursor to fetch; hand the page back with `FeedController.receive`.
    public var pageRequest: FeedCursor?
    public var warnings: [String] = []

    public init() {}

    mutating func append(_ other: FeedOutput) {
        events += other.events
        pageRequest = pageRequest ?? other.pageRequest
        warnings += other.warnings
    }
}
