import Foundation
import ReelCore
import ReelFeed
import Testing

/// The landing prediction of a fast scroll, on samples made from the model it assumes (and from
/// ones it does not), and where a swiped carousel rests.
@Suite("Scroll predictor")
struct ScrollPredictorTests {
    /// Samples at 30 Hz of a fling from `from` released at `v0` points per second, decaying with
    /// time constant `tau`, from `start` seconds for `seconds`.
    static func fling(_ predictor: inout ScrollPredictor, from: Double, v0: Double, tau: Double, start: Double = 0,
                      seconds: Double) {
        var t = 0.0
        while t <= seconds + 1e-9 {
            predictor.sample(from + v0 * tau * (1 - exp(-t / tau)), at: start + t)
            t += 1.0 / 30
        }
    }

    @Test("a fling decaying as modelled is predicted to rest where it rests, early on")
    func modelledFling() throws {
        var predictor = ScrollPredictor()
        Self.fling(&predictor, from: 0, v0: 6000, tau: 0.5, seconds: 0.2)
        let prediction = try #require(predictor.predict(maxOffset: 100_000))
        // It rests at 3000; 0.2 s in (a sixth of its way in time) the error is under 4 %.
        #expect(abs(prediction.landing - 3000) < 120, "\(prediction)")
        #expect(prediction.isFling && !prediction.isStopping && prediction.isDecaying)
        #expect(prediction.velocity < 6000 && prediction.velocity > 3000)
        #expect(prediction.secondsToRest > 1 && prediction.secondsToRest < 2)
    }

    @Test("a fling that slows faster than the model is followed by the measured decay")
    func fasterDecay() throws {
        var predictor = ScrollPredictor()
        Self.fling(&predictor, from: 1000, v0: 8000, tau: 0.2, seconds: 0.25)
        let prediction = try #require(predictor.predict(maxOffset: 100_000))
        // Rests at 1000 + 1600; the model alone (τ 0.5 s) would say about 2600 + 1400.
        #expect(abs(prediction.landing - 2600) < 150, "\(prediction)")
    }

    @Test("the landing stays within the feed and snaps to a nearby widget top")
    func boundsAndSnap() throws {
        var predictor = ScrollPredictor()
        Self.fling(&predictor, from: 0, v0: 6000, tau: 0.5, seconds: 0.2)
        let clamped = try #require(predictor.predict(maxOffset: 2000))
        #expect(clamped.landing == 2000)
        let snapped = try #require(predictor.predict(maxOffset: 100_000, stops: [0, 1000, 2800, 3500]))
        #expect(snapped.landing == 2800, "within 400 points of 3000")
        let far = try #require(predictor.predict(maxOffset: 100_000, stops: [0, 1000, 5000]))
        #expect(abs(far.landing - 3000) < 120, "no stop near enough: the landing stays")
    }

    @Test("a fling that reverses is predicted the other way")
    func reversal() throws {
        var predictor = ScrollPredictor()
        Self.fling(&predictor, from: 0, v0: 6000, tau: 0.5, seconds: 0.3)
        let down = try #require(predictor.predict(maxOffset: 100_000))
        #expect(down.landing > 2500)
        // The user catches it and flings back up from where it is.
        let here = 6000 * 0.5 * (1 - exp(-0.3 / 0.5))
        Self.fling(&predictor, from: here, v0: -5000, tau: 0.5, start: 0.35, seconds: 0.2)
        let up = try #require(predictor.predict(maxOffset: 100_000))
        #expect(up.velocity < 0 && up.landing < here - 1000, "\(up)")
    }

    @Test("a scroll without samples has stopped where it was; a touch holding still stops it too")
    func stopping() throws {
        var predictor = ScrollPredictor()
        Self.fling(&predictor, from: 0, v0: 6000, tau: 0.5, seconds: 0.2)
        let last = 6000 * 0.5 * (1 - exp(-0.2 / 0.5))
        let later = try #require(predictor.predict(maxOffset: 100_000, now: 1.0))
        #expect(later.isStopping && later.velocity == 0 && abs(later.landing - last) < 1)
        // A tap during the fling: the finger holds the content still.
        for step in 1...4 { predictor.sample(last + 40, at: 0.2 + Double(step) / 30) }
        let held = try #require(predictor.predict(maxOffset: 100_000))
        #expect(held.isStopping && !held.isFling && abs(held.landing - (last + 40)) < 5, "\(held)")
    }

    @Test("no samples, no prediction; samples out of order are ignored")
    func edges() {
        var predictor = ScrollPredictor()
        #expect(predictor.predict(maxOffset: 1000) == nil)
        predictor.sample(100, at: 1)
        predictor.sample(900, at: 0.5)
        #expect(predictor.predict(maxOffset: 1000)?.landing == 100)
        #expect(predictor.velocity == 0)
    }

    @Test("a swiped carousel rests on the next card in the swipe's direction")
    func carouselPaging() {
        let pitch = 150.0
        #expect(CarouselPaging.landing(offset: 0, velocity: 900, pitch: pitch, maxOffset: 600) == 150)
        #expect(CarouselPaging.landing(offset: 150, velocity: 900, pitch: pitch, maxOffset: 600) == 300, "a page just left is behind")
        #expect(CarouselPaging.landing(offset: 190, velocity: 900, pitch: pitch, maxOffset: 600) == 300)
        #expect(CarouselPaging.landing(offset: 190, velocity: -900, pitch: pitch, maxOffset: 600) == 150, "a swipe back")
        #expect(CarouselPaging.landing(offset: 190, velocity: 10, pitch: pitch, maxOffset: 600) == 150, "settling: the nearest")
        #expect(CarouselPaging.landing(offset: 590, velocity: 900, pitch: pitch, maxOffset: 600) == 600, "the row's end")
        #expect(CarouselPaging.landing(offset: 20, velocity: -900, pitch: pitch, maxOffset: 600) == 0)
    }
}
