import Foundation
import ReelCore
import ReelFeed
import Testing

/// A released scroll's decay: where it goes, how fast, where it rests.
@Suite("Fling")
struct FlingTests {
    @Test func aFlingDecaysExponentiallyToItsRest() throws {
        let fling = Fling(from: 100, velocity: 2000)
        let tau = Fling.Physics.decelerationSeconds
        #expect(fling.offset(after: 0) == 100)
        #expect(fling.velocity(after: 0) == 2000)
        #expect(abs(fling.offset(after: tau) - (100 + 2000 * tau * (1 - exp(-1)))) < 1e-9)
        #expect(abs(fling.velocity(after: tau) - 2000 * exp(-1)) < 1e-9)
        #expect(fling.rest == 100 + 2000 * tau)
        // It comes to rest within a few time constants, short of its rest point by under 10 points.
        let resting = stride(from: 0.0, through: 5.0, by: 1.0 / 60).first { fling.isResting(after: $0) }
        let seconds = try #require(resting)
        #expect(seconds > 1 && seconds < 3)
        #expect(fling.rest - fling.offset(after: seconds) < 10)
    }

    @Test func aFlingUpwardMovesBackAndReleasesAreClamped() {
        let up = Fling(from: 1000, velocity: -1500)
        #expect(up.offset(after: 0.2) < 1000 && up.rest < up.offset(after: 0.2))
        #expect(Fling.released(at: 0, velocity: 50_000).velocity == Fling.Physics.maxFlingVelocity)
        #expect(Fling.released(at: 0, velocity: -50_000).velocity == -Fling.Physics.maxFlingVelocity)
        #expect(Fling.released(at: 0, velocity: 300).velocity == 300)
    }
}
