import Foundation
@testable import ReelSim
import ReelTestSupport
import Testing

/// The challenge's user draw, bit for bit: MT19937 seeded as numpy's legacy generator and as
/// CPython's `random` seed it, numpy's masked `randint`, and the watch times `run.py` draws
/// (the expected values come from numpy, CPython and the reference reimplementation of run.py).
@Suite("MMGC user")
struct MMGCUserTests {
    @Test func theGeneratorMatchesNumpyAndCPython() {
        var canonical = MersenneTwister(numpySeed: 5489)
        #expect(canonical.next() == 3_499_211_612)
        var numpy = MersenneTwister(numpySeed: 42)
        #expect(numpy.nextDouble() == 0.3745401188473625)
        var python = MersenneTwister(pythonSeed: 0)
        #expect(python.nextDouble() == 0.8444218515250481)
        // A seed of two 32-bit words.
        var wide = MersenneTwister(pythonSeed: (1 << 40) + 7)
        #expect(wide.nextDouble() == 0.6137037779936511)
    }

    @Test func seed42DrawsTheChallengesSeedTable() {
        var numpy = MersenneTwister(numpySeed: 42)
        let seeds = (0..<14).map { _ in Int(numpy.nextInt(below: 100)) }
        #expect(seeds == [51, 92, 14, 71, 60, 20, 82, 86, 74, 74, 87, 99, 23, 2])
    }

    @Test(arguments: [
        (UInt32(42), [4000.0, 5323, 1905, 2791, 859, 7000, 2956]),
        (UInt32(7), [741.0, 6000, 1924, 5000, 1924, 1081, 2203]),
        (UInt32(123_456_789), [4000.0, 4081, 548, 145, 307, 370, 3814]),
    ])
    func watchTimesAreRunPysForEachSeed(seed: UInt32, expected: [Double]) throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dataset = try MMGCDataset.load(root: root.path)
        #expect(MMGCUser(seed: seed, videos: dataset.videos).watchMs == expected)
    }

    @Test func aWholeWatchIsTheVideosLengthAndEveryOtherDrawFallsInItsSecond() {
        // Retention 1, 0.5, 0.5, 0 over a 2-chunk video, then the end marker: half leave in
        // the first second, half watch to the end (2 s).
        let rows = [1.0, 0.5, 0.5, 0]
        for first in UInt32(0)..<100 {
            let watch = MMGCUser.draw(rows, first: first, second: first)
            #expect(watch == 2000 || (0..<1000).contains(watch), "seed \(first): \(watch)")
        }
    }
}
