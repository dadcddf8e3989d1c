import ReelCore
/// Deterministic placeholder texts for the mock feed: titles, comments and merch copy, picked by
/// a seeded generator so the same seed gives the same feed.
enum DummyText {
    private static let adjectives = [
        "Golden", "Quiet", "Electric", "Tiny", "Wild", "Midnight", "Sunny", "Hidden", "Rapid", "Cozy",
        "Urban", "Frozen", "Lucky", "Epic", "Gentle", "Neon",
    ]
    private static let nouns = [
        "Sunset", "Kitchen", "Skate Trick", "Harbor", "Recipe", "Puppy", "Mountain", "Street Band", "Garden",
        "Workout", "Road Trip", "Dance", "Rain", "Market", "Lake", "Sketch",
    ]
    private static let users = ["mia", "leo", "sam", "noor", "kai", "ivy", "ravi", "zoe", "jun", "ana"]
    private static let reactions = [
        "love this!", "watched it five times", "where is this?", "so satisfying", "need the recipe",
        "this made my day", "how??", "the ending though", "saving this", "pure vibes",
    ]
    private static let carouselTitles = [
        "Trending now", "Because you watched", "Fresh picks", "Top this week", "Staff favourites",
        "New creators", "Quick laughs", "Around the world",
    ]
    private static let products = ["Sneakers", "Backpack", "Headphones", "Water Bottle", "Hoodie", "Sunglasses", "Desk Lamp", "Mug"]

    static func shortTitle(seed: Int, video: Video) -> String {
        var random = SeededRandom(seed: seed, stream: 1, position: video.catalogIndex &* 1_000_003 &+ video.lap)
        return "\(random.pick(adjectives)) \(random.pick(nouns))"
    }

    static func comment(seed: Int, video: Video) -> String {
        var random = SeededRandom(seed: seed, stream: 2, position: video.catalogIndex &* 1_000_003 &+ video.lap)
        return "@\(random.pick(users))\(random.next() % 100): \(random.pick(reactions))"
    }

    static func carouselTitle(seed: Int, ordinal: Int) -> String {
        var random = SeededRandom(seed: seed, stream: 3, position: ordinal)
        return random.pick(carouselTitles)
    }

    static func merchTitle(seed: Int, ordinal: Int) -> String {
        var random = SeededRandom(seed: seed, stream: 4, position: ordinal)
        return "\(random.pick(adjectives)) \(random.pick(products))"
    }

    static func merchFooter(seed: Int, ordinal: Int) -> String {
        var random = SeededRandom(seed: seed, stream: 5, position: ordinal)
        let price = 9 + Int(random.next() % 190)
        return "$\(price).99 · Free shipping"
    }
}
