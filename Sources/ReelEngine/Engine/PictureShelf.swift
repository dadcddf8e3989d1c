import ReelMedia

/// Decoded pictures by card, at most `capacity` of them: the one used longest ago goes first.
package struct PictureShelf: Sendable {
    package let capacity: Int
    private var pictures: [String: (picture: Picture, used: Int)] = [:]
    private var clock = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The card's picture, now counted as used.
    package mutating func take(_ card: String) -> Picture? {
        guard let entry = pictures[card] else { return nil }
        clock += 1
        pictures[card]?.used = clock
        return entry.picture
    }

    /// Keeps `picture` for `card`, letting the least recently used go when full.
    package mutating func put(_ card: String, _ picture: Picture) {
        clock += 1
        if pictures[card] == nil, pictures.count >= capacity,
           let oldest = pictures.min(by: { $0.value.used < $1.value.used })?.key {
            pictures[oldest] = nil
        }
        pictures[card] = (picture, clock)
    }

    package var count: Int { pictures.count }
}
