import ReelCore
/// Where a swiped carousel comes to rest: its cards page, so a swipe rests on the next card
/// boundary in the direction it moves (the nearest one when it barely moves), within the row.
public enum CarouselPaging {
    /// The resting offset of a carousel at `offset` moving at `velocity` (points per second,
    /// positive towards later cards), with cards every `pitch` points and `maxOffset` the
    /// farthest it scrolls; `threshold` is the speed under which it settles on the nearest card.
    public static func landing(offset: Double, velocity: Double, pitch: Double, maxOffset: Double,
                               threshold: Double = 250) -> Double {
        guard pitch > 0 else { return min(max(0, offset), max(0, maxOffset)) }
        let position = offset / pitch
        let page: Double
        // A page a swipe has just left counts as behind it: 1.0 moving on rests on 2.
        if velocity > threshold {
            page = (position + 1e-6).rounded(.down) + 1
        } else if velocity < -threshold {
            page = (position - 1e-6).rounded(.up) - 1
        } else {
            page = position.rounded()
        }
        return min(max(0, page * pitch), max(0, maxOffset))
    }
}
