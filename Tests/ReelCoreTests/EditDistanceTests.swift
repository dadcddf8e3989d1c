import ReelCore
import Testing

/// The distance behind "did you mean": edits, and a swap of two neighbours counted as one.
@Suite("Edit distance")
struct EditDistanceTests {
    @Test(arguments: [
        ("cache", "cache", 0), ("cache", "cahce", 1), ("play", "pley", 1), ("ab", "ba", 1), ("kitten", "sitting", 3),
        ("", "abc", 3), ("ca", "abc", 3), ("prefetch.maxConcurrent", "prefetch.maxConcurent", 1),
    ])
    func distance(lhs: String, rhs: String, expected: Int) {
        #expect(EditDistance.between(lhs, rhs) == expected)
        #expect(EditDistance.between(rhs, lhs) == expected)
    }

    @Test func aSearchStopsPastItsLimit() {
        #expect(EditDistance.between(Array("cahce".utf8), Array("cache".utf8), limit: 1) == 1)
        #expect(EditDistance.between(Array("abcdef".utf8), Array("uvwxyz".utf8), limit: 2) == nil)
    }

    @Test func theNearestOfManyWithinAThirdOfTheName() {
        let commands = ["play", "inspect", "serve", "cache", "prefetch", "config", "feed"]
        #expect(EditDistance.suggestion(for: "cahce", among: commands) == "cache")
        #expect(EditDistance.suggestion(for: "PLAY", among: commands) == "play")
        #expect(EditDistance.suggestion(for: "zzzzz", among: commands) == nil)
    }
}
