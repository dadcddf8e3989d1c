import ReelCore
/// The key and init section of a segment, in one immutable box that the segments between two
/// `EXT-X-KEY`/`EXT-X-MAP` tags (or of one DASH representation) share: 8 bytes per segment
/// instead of some 200.
final class SegmentContext: Sendable {
    let key: Key?
    let initSection: InitSection?

    init(key: Key?, initSection: InitSection?) {
        self.key = key
        self.initSection = initSection
    }

    /// No key, no init section.
    static let none = SegmentContext(key: nil, initSection: nil)
}
