import ReelCore
import ReelFeed
import Testing

@Suite("Card visibility state machine")
struct CardVisibilityTests {
    let thresholds = VisibilityThresholds(ReelConfig().visibility.short)
    let h = 0.02

    /// Feeds fractions and records the states after each.
    func run(_ fractions: [Double], from start: CardVisibility = CardVisibility(), ahead: Bool = false, keep: Bool = true) -> [VisibilityState] {
        var machine = start
        return fractions.map { fraction in
            machine.update(fraction: fraction, ahead: ahead, keep: keep, thresholds: thresholds, hysteresis: h)
            return machine.state
        }
    }

    @Test("entering: prefetch ahead, mount at 1%, ready at 20%")
    func entering() {
        #expect(run([0, 0.005, 0.01, 0.19, 0.2, 1], ahead: true) == [.prefetch, .prefetch, .mounted, .mounted, .ready, .ready])
        #expect(run([0], ahead: false) == [.idle])
    }

    @Test("leaving: soft release below 50%, pause below 20%, unmount at 0%, idle out of range")
    func leaving() {
        let states = run([1, 0.6, 0.47, 0.19, 0.17, 0.05, 0])
        #expect(states == [.ready, .ready, .softRelease, .softRelease, .paused, .paused, .unmounted])
        var machine = CardVisibility(state: .unmounted)
        machine.update(fraction: 0, ahead: false, keep: false, thresholds: thresholds, hysteresis: h)
        #expect(machine.state == .idle)
    }

    @Test("soft release only while leaving: an entering card below 50% stays ready")
    func softReleaseNeedsLeaving() {
        #expect(run([0.2, 0.3, 0.4, 0.45, 0.44]) == [.ready, .ready, .ready, .ready, .ready])
        #expect(run([0.2, 0.45, 0.42]) == [.ready, .ready, .softRelease])
    }

    @Test("back from soft release needs the soft-release threshold itself")
    func softReleaseRecovery() {
        #expect(run([1, 0.4, 0.45, 0.49, 0.5]) == [.ready, .softRelease, .softRelease, .softRelease, .ready])
    }

    @Test("a card resting on a threshold does not flap")
    func hysteresis() {
        // Resting at the ready/pause threshold (20%) with jitter.
        let jitter = [0.2, 0.19, 0.2, 0.185, 0.199, 0.2, 0.181]
        #expect(Set(run(jitter)) == [.ready])
        // A paused card jittering just under 20% stays paused.
        #expect(Set(run([0.17, 0.19, 0.185, 0.199], from: CardVisibility(state: .paused))) == [.paused])
        // Around the soft-release threshold.
        #expect(Set(run([0.5, 0.49, 0.485, 0.5, 0.49], from: CardVisibility(state: .ready, peak: 0.5))) == [.ready])
        // Mounted at 1% jittering towards 0.5% stays mounted.
        #expect(Set(run([0.01, 0.005, 0.009, 0.006])) == [.mounted])
    }

    @Test("large jumps cross several states at once")
    func jumps() {
        #expect(run([0.9], ahead: false) == [.ready])
        #expect(run([0], from: CardVisibility(state: .ready), keep: false) == [.idle])
        #expect(run([0.1], from: CardVisibility(state: .ready, peak: 1)) == [.paused])
    }

    @Test("thresholds are per widget type and configurable")
    func perType() throws {
        let config = try Fixtures.config(["visibility.carousel.ready=0.5", "visibility.carousel.softRelease=0.6"])
        let parameters = VisibilityParameters(config: config)
        var short = CardVisibility()
        var carousel = CardVisibility()
        short.update(fraction: 0.3, ahead: false, keep: true, thresholds: parameters.thresholds(for: .short), hysteresis: h)
        carousel.update(fraction: 0.3, ahead: false, keep: true, thresholds: parameters.thresholds(for: .carousel), hysteresis: h)
        #expect(short.state == .ready)
        #expect(carousel.state == .mounted)
        #expect(parameters.thresholds(for: .merch) == thresholds)
    }
}
